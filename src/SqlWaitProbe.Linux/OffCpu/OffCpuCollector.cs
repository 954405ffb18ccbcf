using System.Diagnostics;
using System.Globalization;
using System.IO.Compression;
using System.Text;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.Linux.PerfRecord;

namespace SqlWaitProbe.Linux.OffCpu;

/// <summary>
/// Off-CPU stacks of the workload's server processes: a second <c>perf record</c> of <c>sched:sched_switch</c> with
/// call stacks and per-task switch records (<c>-p</c> the sessions' backends, so other processes cost nothing),
/// on CLOCK_MONOTONIC so its times line up with the executions. Writes <c>offcpu/perf.script.gz</c> (raw),
/// <c>offcpu/stacks.csv</c> and <c>offcpu/intervals.csv</c> (each stretch off the CPU with its session, state and stack).
/// In attach mode the sessions come and go: perf also follows the backends' parent (the postmaster), and perf's
/// events are inherited by the children a process forks after they were opened, so every backend of a connection
/// made during the window is recorded from its first switch; after the phase, each thread is kept only if the
/// engine's sampler registered it as a session (<see cref="LiveSessions"/>), under the session it served then.
/// </summary>
public sealed class OffCpuCollector : ICollector
{
    private readonly RunScope _scope;
    private readonly int _maxMegabytes;
    private Process? _perf;
    private string? _dataPath;
    private PerfChild? _child;
    private Task<string>? _stderr;
    private (DateTime Utc, double Monotonic) _anchor;
    private Dictionary<int, int> _sessionOfPid = [];
    private readonly Dictionary<int, List<(DateTime From, int Session)>> _followed = [];
    private IDisposable? _following;
    private int? _postmaster;

    /// <summary>
    /// Creates the collector; its perf child belongs to the run of <paramref name="scope"/>. <paramref name="sessionParent"/>
    /// is the process that forks the backends (the postmaster) when the engine knows it.
    /// </summary>
    public OffCpuCollector(RunScope scope, int maxMegabytes = 512, int? sessionParent = null)
    {
        _scope = scope;
        _maxMegabytes = maxMegabytes;
        _postmaster = sessionParent;
    }

    /// <inheritdoc />
    public string Name => "offcpu";

    /// <inheritdoc />
    public async Task StartAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        _sessionOfPid = phase.Sessions.Where(s => s.BackendPid is not null).GroupBy(s => s.BackendPid!.Value).ToDictionary(g => g.Key, g => g.First().Session);
        var description = $"perf record of sched_switch in phase {phase.Name} (run {_scope.RunId})";
        if (phase.Name != PhaseNames.Attach)
        {
            if (_sessionOfPid.Count == 0)
            {
                throw new InvalidOperationException("no workload backend pid is known, so there is nothing to trace");
            }

            if (await TryStartAsync(phase, [.. _sessionOfPid.Keys], description, cancellationToken) is { } error)
            {
                throw new InvalidOperationException(error);
            }

            return;
        }

        // A backend listed a moment ago can be gone when perf opens its events (a client that connects per
        // transaction), and perf then refuses the whole list: it is asked again with the postmaster alone, whose
        // inheritance covers every backend forked from then on (those of such a client live a moment only). The
        // postmaster's pid comes from the engine (the parent of the probe's own backend), else from any backend still there.
        _following = phase.Live.Follow(Started, _ => { });
        string? last = null;
        for (var attempt = 1; attempt <= 10; attempt++)
        {
            List<int> alive = [.. Alive(phase).Where(Exists)];
            _postmaster ??= ParentOf(alive);
            List<int> traced = _postmaster is { } postmaster ? (attempt == 1 ? [.. alive, postmaster] : [postmaster]) : alive;

            if (traced.Count > 0)
            {
                last = await TryStartAsync(phase, traced, description, cancellationToken);
                if (last is null)
                {
                    return;
                }

                _perf?.Dispose();
                _child?.Finish();
            }

            await Task.Delay(50, cancellationToken);
        }

        throw new InvalidOperationException(last ?? "every watched backend had gone before perf could open its events, and their parent is not known");
    }

    private static bool Exists(int pid) => Directory.Exists($"/proc/{pid.ToString(CultureInfo.InvariantCulture)}");

    /// <summary>Starts perf on <paramref name="traced"/>; returns why it stopped at once, or null when it records.</summary>
    private async Task<string?> TryStartAsync(PhaseContext phase, List<int> traced, string description, CancellationToken cancellationToken)
    {
        _child = PerfChild.Prepare(_scope, "offcpu-" + phase.Name, description);
        _dataPath = _child.DataPath;
        string[] arguments =
                 [
                     "record", "-e", "sched:sched_switch", "-g", "--switch-events", "-k", "CLOCK_MONOTONIC",
                     "-p", string.Join(',', traced.Distinct().Select(p => p.ToString(CultureInfo.InvariantCulture))),
                     "-o", _dataPath, $"--max-size={_maxMegabytes}M", .. PerfVersion.SidebandArguments(),
                 ];

        // Stopwatch reads CLOCK_MONOTONIC on Linux: one pair of readings maps perf's times to UTC.
        _anchor = (DateTime.UtcNow, Stopwatch.GetTimestamp() / (double)Stopwatch.Frequency);
        _perf = _child.Start(arguments, description);
        _perf.StandardInput.Close();
        _stderr = _perf.StandardError.ReadToEndAsync(CancellationToken.None);
        _ = _perf.StandardOutput.ReadToEndAsync(CancellationToken.None);
        var waited = Stopwatch.StartNew();
        while (!(File.Exists(_dataPath) && new FileInfo(_dataPath).Length > 0) && waited.Elapsed < TimeSpan.FromSeconds(5))
        {
            if (_perf.HasExited)
            {
                return $"perf record of sched_switch exited at once (exit {_perf.ExitCode}): {LastLine(await _stderr)}";
            }

            await Task.Delay(20, cancellationToken);
        }

        return null;
    }

    /// <inheritdoc />
    public async Task<CollectorOutcome> StopAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        _following?.Dispose();
        if (_perf is null || _dataPath is null)
        {
            return new CollectorOutcome(Name, CollectorStatus.Failed, 0, "not started");
        }

        if (phase.Ring is { Discarded: true })
        {
            return await PerfRecord.PerfRecordCollector.DiscardAsync(_perf, _child, null, Name);
        }

        try
        {
            var stoppedItself = _perf.HasExited;
            if (!stoppedItself && !await PerfStopper.InterruptAsync(_perf, cancellationToken))
            {
                return new CollectorOutcome(Name, CollectorStatus.Failed, 0, "perf record of sched_switch did not stop on SIGINT and was killed; its data is lost");
            }

            var raw = phase.PathFor(BundlePaths.OffCpuScript(phase.Name));
            await PerfScriptRunner.WriteGzipAsync(["script", "--no-inline", "--show-switch-events", "-F", "comm,pid,tid,time,event,trace,ip,sym,dso", "-i", _dataPath], raw, "off-CPU stacks", cancellationToken);
            HashSet<int> tids;
            lock (_followed)
            {
                tids = [.. _sessionOfPid.Keys, .. _followed.Keys];
            }

            var parser = new SchedSwitchParser(tids);
            List<OffCpuInterval> intervals;
            using (var reader = new StreamReader(new GZipStream(File.OpenRead(raw), CompressionMode.Decompress)))
            {
                intervals = parser.Parse(reader);
            }

            Write(phase, parser, intervals);
            return stoppedItself
                ? new CollectorOutcome(Name, CollectorStatus.Partial, 0, $"perf stopped early: its data reached {_maxMegabytes} MB or it failed ({LastLine(_stderr is null ? "" : await _stderr)})")
                : new CollectorOutcome(Name, CollectorStatus.Ok);
        }
        finally
        {
            _child?.Finish();
            _perf.Dispose();
        }
    }

    private void Write(PhaseContext phase, SchedSwitchParser parser, List<OffCpuInterval> intervals)
    {
        var offset = (_anchor.Utc - phase.StartUtc).TotalMilliseconds;
        WriteAtomically(phase.PathFor(BundlePaths.OffCpuStacks(phase.Name)), writer =>
        {
            writer.Write(BundleColumns.Header(BundleColumns.OffCpuStacks.All) + "\n");
            for (var i = 0; i < parser.Stacks.Count; i++)
            {
                writer.Write(Csv.Line(i.ToString(CultureInfo.InvariantCulture), parser.Stacks[i]) + "\n");
            }
        });
        WriteAtomically(phase.PathFor(BundlePaths.OffCpuIntervals(phase.Name)), writer =>
        {
            writer.Write(BundleColumns.Header(BundleColumns.OffCpuIntervals.All) + "\n");
            foreach (var i in intervals)
            {
                var start = offset + (i.OutSeconds - _anchor.Monotonic) * 1000;
                var end = offset + (i.InSeconds - _anchor.Monotonic) * 1000;
                writer.Write(Csv.Line(Ms(start), Ms(end), SessionOf(i.Tid, _anchor.Utc.AddSeconds(i.OutSeconds - _anchor.Monotonic)).ToString(CultureInfo.InvariantCulture), i.State.ToString(), i.StackId.ToString(CultureInfo.InvariantCulture)) + "\n");
            }
        });
    }

    private void Started(WorkloadSessionInfo session)
    {
        if (session.BackendPid is { } pid)
        {
            lock (_followed)
            {
                if (!_followed.TryGetValue(pid, out var list))
                {
                    _followed[pid] = list = [];
                }

                list.Add((DateTime.UtcNow, session.Session));
            }
        }
    }

    /// <summary>The session <paramref name="tid"/> served at <paramref name="utc"/>: the last one registered with that pid before then (a pid can serve a later connection), else the first.</summary>
    private int SessionOf(int tid, DateTime utc)
    {
        lock (_followed)
        {
            if (_followed.TryGetValue(tid, out var list))
            {
                return list.LastOrDefault(s => s.From <= utc) is { Session: > 0 } s ? s.Session : list[0].Session;
            }
        }

        return _sessionOfPid[tid];
    }

    private static IEnumerable<int> Alive(PhaseContext phase) =>
        phase.Live.Alive.Where(s => s.BackendPid is > 0).Select(s => s.BackendPid!.Value);

    /// <summary>The process that forks the sessions' backends (PostgreSQL's postmaster): the parent of any of <paramref name="pids"/>.</summary>
    private static int? ParentOf(IEnumerable<int> pids)
    {
        foreach (var pid in pids)
        {
            try
            {
                var stat = File.ReadAllText($"/proc/{pid.ToString(CultureInfo.InvariantCulture)}/stat");
                var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
                if (int.TryParse(fields[1], NumberStyles.None, CultureInfo.InvariantCulture, out var parent) && parent > 1)
                {
                    return parent;
                }
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentOutOfRangeException or IndexOutOfRangeException)
            {
            }
        }

        return null;
    }

    private static string Ms(double ms) => ms.ToString("0.###", CultureInfo.InvariantCulture);

    private static void WriteAtomically(string path, Action<TextWriter> write) => Core.Files.AtomicFile.WriteText(path, write);

    private static string LastLine(string text) => text.Split('\n').LastOrDefault(l => l.Trim().Length > 0)?.Trim() ?? "";

}
