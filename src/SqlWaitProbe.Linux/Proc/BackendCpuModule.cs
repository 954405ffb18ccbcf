using SqlWaitProbe.Analysis;
using SqlWaitProbe.Analysis.Input;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Options;

namespace SqlWaitProbe.Linux.Proc;

/// <summary>
/// Each session's backend CPU and run queue from <c>/proc/PID</c>, for engines with a process per session: the totals
/// into <c>sessions.csv</c> (the runner's file) and the 100 ms readings into <c>session_timeline.csv</c>, which it reads back.
/// </summary>
public sealed class BackendCpuModule : IOsCollectorModule, IAnalysisModule
{
    /// <summary>Why the collectors of backends cannot run for a server on another machine.</summary>
    internal const string NotHere = "the server is on another machine: its backends are not in this /proc";

    /// <summary>Why they do not run when attach mode found no session to watch.</summary>
    internal const string NoBackend = "no client backend matched the attach filters";

    /// <inheritdoc />
    public string Name => "backend-cpu";

    /// <inheritdoc />
    public IReadOnlyList<IOptionSpec> Options => [];

    /// <inheritdoc />
    public CollectorStage Stage => CollectorStage.Counters;

    /// <inheritdoc />
    public IReadOnlyList<CollectorChoice> Choose(OsSetup setup)
    {
        if (!setup.ProcessPerSession)
        {
            return [];
        }

        return
        [
            setup.ServerIsLocal
                ? new(Name, "session CPU: /proc/<backend>/schedstat of every session's backend every 100 ms (10 ms in attach mode) while it lives (session_timeline.csv), and /proc/<backend>/stat every second (sessions.csv, series.csv)")
                : new(Name, "session CPU: not run (" + NotHere + ")", CollectorStatus.Skipped, NotHere),
        ];
    }

    /// <inheritdoc />
    public IEnumerable<ICollector> Create(IReadOnlyList<CollectorChoice> choices, PhaseContext phase, OsSetup setup) =>
        choices.Select(c => !c.Runs ? c.NotRun()
            : phase.Sessions.Count == 0 ? new NotRunCollector(c.Name, CollectorStatus.Skipped, NoBackend)
            : (ICollector)new BackendCpuCollector());

    /// <inheritdoc />
    public PhaseData Read(PhaseData phase, CaptureBundle bundle, CancellationToken cancellationToken)
    {
        if (ReadSessionTimeline(bundle, BundlePaths.SessionTimeline(phase.Name)) is { } timeline)
        {
            phase = phase with { SessionTimeline = timeline };
        }

        return ReadParallelWorkers(bundle, BundlePaths.ParallelWorkers(phase.Name)) is { } workers ? phase with { ParallelWorkers = workers } : phase;
    }

    internal static List<ParallelWorker>? ReadParallelWorkers(CaptureBundle bundle, string relative)
    {
        var c = BundleColumns.ParallelWorkers.All;
        using var csv = CsvFile.Open(bundle, relative, c);
        if (csv is null)
        {
            return null;
        }

        var workers = new List<ParallelWorker>();
        while (csv.Read())
        {
            var cpu = csv.Number(BundleColumns.ParallelWorkers.CpuMs);
            var exit = csv.Number(BundleColumns.ParallelWorkers.ExitCpuMs);
            if (cpu < 0 || exit < 0 || exit > cpu)
            {
                throw new BadInputException($"cpu_ms {cpu} and exit_cpu_ms {exit} of a parallel worker must be 0 or more, exit_cpu_ms at most cpu_ms", relative, csv.LineNumber);
            }

            workers.Add(new ParallelWorker((int)csv.Number(BundleColumns.ParallelWorkers.Session), (int)csv.Number(BundleColumns.ParallelWorkers.Pid),
                (int)csv.Number(BundleColumns.ParallelWorkers.LeaderPid), csv.Number(BundleColumns.ParallelWorkers.FirstMs), csv.Number(BundleColumns.ParallelWorkers.LastMs),
                cpu, csv.Number(BundleColumns.ParallelWorkers.RunQueueMs), exit));
        }

        return workers;
    }

    internal static SessionTimeline? ReadSessionTimeline(CaptureBundle bundle, string relative)
    {
        using var csv = CsvFile.Open(bundle, relative, BundleColumns.SessionTimeline.Ms, BundleColumns.SessionTimeline.Session, BundleColumns.SessionTimeline.CpuMs, BundleColumns.SessionTimeline.RunQueueMs);
        if (csv is null)
        {
            return null;
        }

        var timeline = new SessionTimeline();
        var last = new Dictionary<int, double>();
        while (csv.Read())
        {
            var session = (int)csv.Number(BundleColumns.SessionTimeline.Session);
            var ms = csv.Number(BundleColumns.SessionTimeline.Ms);
            if (last.TryGetValue(session, out var previous) && ms < previous)
            {
                throw new BadInputException($"ms {ms} of session {session} is before its previous reading ({previous})", relative, csv.LineNumber);
            }

            last[session] = ms;
            timeline.Add(session, ms, csv.Number(BundleColumns.SessionTimeline.CpuMs), csv.Number(BundleColumns.SessionTimeline.RunQueueMs));
        }

        return timeline;
    }
}
