namespace SqlWaitProbe.Linux.Perf;

/// <summary>The event line of one perf sample.</summary>
/// <param name="Comm">The command name as perf printed it.</param>
/// <param name="Process">The root frame of folded output: <c>comm</c> with spaces as <c>_</c>, plus <c>-PID</c> or <c>-PID/TID</c> when asked.</param>
/// <param name="Pid">Process id, or -1 when perf printed none.</param>
/// <param name="Tid">Thread id, or -1.</param>
/// <param name="Cpu">CPU number, or -1.</param>
/// <param name="TimestampSeconds">perf's timestamp in seconds, or NaN.</param>
/// <param name="Period">The sample period when perf printed one, else 1.</param>
public readonly record struct PerfSampleHeader(string Comm, string Process, int Pid, int Tid, int Cpu, double TimestampSeconds, long Period);
