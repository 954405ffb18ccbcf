using System.Globalization;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Core.Stacks;

/// <summary>
/// Which sampled processes are the capture's own workload. CPU stacks are recorded for every process on the machine
/// (perf <c>-a</c>, ETW kernel sampling), so another server of the same name (a second capture, a user's own
/// PostgreSQL) would otherwise count as the workload. Samples of a recorded process keep its name; samples of any other
/// process named like the server are renamed <see cref="OtherName"/>, so analysis, which reads the server's name only,
/// never sees them, while the all-process flame graph still shows them.
/// </summary>
public sealed class WorkloadProcesses
{
    /// <summary>What a start time in whole clock ticks may be below the real start (a tick is 10 ms at the usual 100 Hz).</summary>
    private const double StartSlackSeconds = 0.02;

    private readonly Dictionary<int, List<WorkloadProcess>> _byPid = new();

    /// <summary>The set for <paramref name="serverProcess"/> with the recorded <paramref name="processes"/>.</summary>
    public WorkloadProcesses(string serverProcess, IEnumerable<WorkloadProcess> processes, double endSlackSeconds = 0.25)
    {
        ArgumentNullException.ThrowIfNull(processes);
        ServerProcess = serverProcess;
        EndSlackSeconds = endSlackSeconds;
        foreach (var p in processes)
        {
            if (!_byPid.TryGetValue(p.Pid, out var list))
            {
                _byPid[p.Pid] = list = [];
            }

            list.Add(p);
        }
    }

    /// <summary>The server's process name (<c>postgres</c>, <c>sqlservr</c>).</summary>
    public string ServerProcess { get; }

    /// <summary>How long after it was last seen an ended process's samples still count (its last poll to its exit).</summary>
    public double EndSlackSeconds { get; }

    /// <summary>The recorded processes, by pid then start.</summary>
    public IReadOnlyList<WorkloadProcess> Processes =>
        _byPid.Values.SelectMany(l => l).OrderBy(p => p.Pid).ThenBy(p => p.StartTicks).ToArray();

    /// <summary>The name samples of another process named like the server get: <c>other:postgres</c>.</summary>
    public static string OtherName(string process) => "other:" + process;

    /// <summary>
    /// True when the sample of <paramref name="pid"/> at <paramref name="seconds"/> after boot was taken in a recorded
    /// process: same pid, and the time between that process's start and its end. NaN compares the pid only (a source
    /// without a boot clock, or one whose clock does not match).
    /// </summary>
    public bool IsWorkload(int pid, double seconds)
    {
        if (!_byPid.TryGetValue(pid, out var list))
        {
            return false;
        }

        if (double.IsNaN(seconds))
        {
            return true;
        }

        foreach (var p in list)
        {
            if (seconds >= p.StartSeconds - StartSlackSeconds && (p.RunningAtEnd || seconds <= p.LastSeenSeconds + EndSlackSeconds))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>The process name a sample is filed under: its own, or <see cref="OtherName"/> for a server-named process that is not the workload's.</summary>
    public string Label(string process, int pid, double seconds) =>
        string.Equals(process, ServerProcess, StringComparison.OrdinalIgnoreCase) && !IsWorkload(pid, seconds) ? OtherName(process) : process;

    /// <summary>
    /// True when sample times (<paramref name="firstSeconds"/> to <paramref name="lastSeconds"/>) fall within the
    /// recording window give or take <paramref name="toleranceSeconds"/>: the samples and the process start times
    /// are then on one clock and can be compared, so a reused pid is told apart.
    /// </summary>
    public static bool SameClock(double firstSeconds, double lastSeconds, double windowStart, double windowEnd, double toleranceSeconds = 5)
        => !double.IsNaN(firstSeconds) && !double.IsNaN(lastSeconds)
           && firstSeconds >= windowStart - toleranceSeconds && lastSeconds <= windowEnd + toleranceSeconds;

    /// <summary>Writes the recorded processes in the form of <see cref="BundlePaths.Processes"/>.</summary>
    public void Write(TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.Write(BundleColumns.Header(BundleColumns.Processes.All) + "\n");
        foreach (var p in Processes)
        {
            writer.Write(Csv.Line(
                Csv.Number(p.Pid), Csv.Number(p.ParentPid), p.Name, Csv.Number(p.StartTicks),
                p.StartSeconds.ToString("0.00", CultureInfo.InvariantCulture), p.LastSeenSeconds.ToString("0.00", CultureInfo.InvariantCulture),
                p.RunningAtEnd ? "1" : "0"));
            writer.Write('\n');
        }
    }
}
