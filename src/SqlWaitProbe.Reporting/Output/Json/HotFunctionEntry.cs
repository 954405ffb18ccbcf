namespace SqlWaitProbe.Reporting.Output.Json;

/// <summary>A named function of the server process where its CPU goes: inclusive and self shares of its samples, and the named functions it calls first.</summary>
public sealed record HotFunctionEntry(string Function, string Module, bool Kernel, double InclusiveShare, double SelfShare, double CpuMsPerExecution, IReadOnlyList<NamedShareEntry> Callees);
