namespace SqlWaitProbe.Core.Stacks;

/// <summary>
/// The CPU one process on the machine used while the stacks were sampled (a row of <c>cpu/process_cpu.csv</c>).
/// </summary>
/// <param name="Pid">Process id.</param>
/// <param name="Name">Its command name: the main thread's (<c>dotnet</c>), not a worker thread's (<c>.NET TP Worker</c>).</param>
/// <param name="Role"><see cref="Workload"/>, <see cref="Probe"/> or <see cref="Other"/>.</param>
/// <param name="CpuMs">CPU milliseconds its samples stand for.</param>
/// <param name="Samples">Samples taken in it.</param>
public sealed record ProcessCpu(int Pid, string Name, string Role, double CpuMs, long Samples)
{
    /// <summary>A process of the captured workload (the server's).</summary>
    public const string Workload = "workload";

    /// <summary>The capture itself: the probe (driver and collectors) and its perf recorder.</summary>
    public const string Probe = "probe";

    /// <summary>Anything else on the machine.</summary>
    public const string Other = "other";
}
