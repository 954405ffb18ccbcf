namespace SqlWaitProbe.Core.ServerSettings;

/// <summary>What is wrong in a script before it runs (a syntax error), located in it.</summary>
/// <param name="Batch">The batch (1-based).</param>
/// <param name="Line">The script's line (1-based).</param>
/// <param name="Message">What the engine's parser says.</param>
public sealed record ScriptProblem(int Batch, int Line, string Message);
