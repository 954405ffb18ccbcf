using SqlWaitProbe.Core.Os;
using System.Diagnostics;
using SqlWaitProbe.Core.Runtime;

namespace SqlWaitProbe.Linux.PerfRecord;

/// <summary>
/// A <c>perf record</c> child of a capture: its data file lives in the capture's private run folder, its record is
/// written there before perf starts and completed with perf's identity right after, so <c>probe cleanup</c> can stop
/// exactly this process after a <c>kill -9</c> of the probe. Its environment holds no secret of the probe's.
/// </summary>
public sealed class PerfChild
{
    private const int SigKill = 9;
    private readonly RunScope _scope;
    private readonly RunFolder _run;
    private readonly string _name;
    private ProcessIdentity? _identity;

    private PerfChild(RunScope scope, RunFolder run, string name)
    {
        _scope = scope;
        _run = run;
        _name = name;
        DataPath = DataPathIn(run, name);
    }

    private static string DataPathIn(RunFolder run, string name) => run.PathFor(name + ".data");

    /// <summary>The perf data file (<c>-o</c>), inside the run folder.</summary>
    public string DataPath { get; }

    /// <summary>The perf process once started.</summary>
    public Process? Process { get; private set; }

    /// <summary>Records a perf child of the run of <paramref name="scope"/> named <paramref name="name"/> (e.g. <c>perf-load</c>) before it starts.</summary>
    public static PerfChild Prepare(RunScope scope, string name, string description)
    {
        ArgumentNullException.ThrowIfNull(scope);
        var run = scope.Record(folder => new RunResource { Name = name, Description = description, ProcessArgument = DataPathIn(folder, name), StopSignal = SigKill });
        return new PerfChild(scope, run, name);
    }

    /// <summary>The nice value perf runs at: the highest scheduling priority.</summary>
    internal const int HighestPriority = -20;

    /// <summary>Starts <c>perf</c> with <paramref name="arguments"/> (which must name <see cref="DataPath"/>) and records its identity.</summary>
    public Process Start(IEnumerable<string> arguments, string description)
    {
        var info = ChildEnvironment.Minimal(new ProcessStartInfo("perf") { UseShellExecute = false, RedirectStandardInput = true, RedirectStandardOutput = true, RedirectStandardError = true }, "PERF_");
        foreach (var a in arguments)
        {
            info.ArgumentList.Add(a);
        }

        Process = System.Diagnostics.Process.Start(info) ?? throw new InvalidOperationException("perf record did not start");
        _scope.Track(this, Kill);

        // perf must drain its ring buffers as fast as the kernel fills them. On a machine whose CPUs are all taken (96
        // sessions on 2 CPUs) a perf at normal priority waits its turn behind every runnable backend, its buffers
        // overflow and it loses nearly every sample (24 kept of about 5,000 in 5 s, measured). At the highest priority
        // it runs as soon as it is woken; it uses no more CPU than the work it records. Without root it stays as it is,
        // and the samples it loses show in the phase's Data quality.
        _ = Libc.SetNice(Process.Id, HighestPriority);

        // Process.Start returns once the child has exec'd, so the identity read now is perf's own.
        _identity = ProcessIdentity.Read(Process.Id);
        _run.Record(new RunResource { Name = _name, Description = description, ProcessArgument = DataPath, StopSignal = SigKill, Process = _identity });
        return Process;
    }

    /// <summary>The forced exit: kills this perf at once and deletes its files.</summary>
    public void Kill()
    {
        _identity?.Signal(SigKill);
        Finish();
    }

    /// <summary>Deletes the data files and the record; the run folder goes with its last record.</summary>
    public void Finish()
    {
        _scope.Untrack(this);
        foreach (var file in new[] { DataPath, DataPath + ".old", DataPath + ".log" })
        {
            try
            {
                File.Delete(file);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
            }
        }

        _run.Forget(_name);
    }
}
