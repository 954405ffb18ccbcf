using System.Globalization;

namespace SqlWaitProbe.Analysis.Ledger;

/// <summary>The CPU of the processes of one name during a phase, as a share of what the machine had.</summary>
/// <param name="Name">Command name (<c>dotnet</c>, <c>csc</c>).</param>
/// <param name="Pids">Their process ids, heaviest first; empty when only names were recorded (bundles by process name).</param>
/// <param name="CpuSeconds">CPU seconds their samples stand for.</param>
/// <param name="MachineShare">CPU seconds ÷ (logical CPUs × the sampling window).</param>
public sealed record ProcessCpuUse(string Name, IReadOnlyList<int> Pids, double CpuSeconds, double MachineShare)
{
    /// <summary>The processes for prose: <c>dotnet (pid 4242)</c>, <c>csc (3 processes: pids 7184, 7219, 7201)</c>.</summary>
    public string Label => Pids.Count switch
    {
        0 => Name,
        1 => $"{Name} (pid {Pids[0].ToString(CultureInfo.InvariantCulture)})",
        _ => $"{Name} ({Pids.Count.ToString(CultureInfo.InvariantCulture)} processes: pids {string.Join(", ", Pids.Take(5).Select(p => p.ToString(CultureInfo.InvariantCulture)))}{(Pids.Count > 5 ? ", …" : "")})",
    };
}
