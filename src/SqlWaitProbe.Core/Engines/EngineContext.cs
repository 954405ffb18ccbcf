using SqlWaitProbe.Core.Runtime;

namespace SqlWaitProbe.Core.Engines;

/// <summary>What the command line lends an engine it creates.</summary>
/// <param name="ReadSecret">Asks for a password on the terminal (the prompt is the argument); null when there is no terminal.</param>
/// <param name="Scope">What the capture owns on this machine: its run id, run folder and child processes.</param>
public sealed record EngineContext(Func<string, string>? ReadSecret, RunScope Scope);
