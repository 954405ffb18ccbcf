namespace SqlWaitProbe.Core.Engines;

/// <summary>A destructive choice the user made that must be confirmed before a capture sends anything.</summary>
/// <param name="Option">The option that asked for it, e.g. <c>--reset-server-state</c>.</param>
/// <param name="Question">The yes/no question, saying exactly what will happen.</param>
public sealed record EngineConfirmation(string Option, string Question);
