using System.Diagnostics;
using System.Globalization;
using System.IO.Compression;
using System.Text;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.Linux.PerfRecord;

namespace SqlWaitProbe.Linux.OffCpu;

/// <summary>
/// Off-CPU stacks of the workload's server processes: a second <c>perf record</c> of <c>sched:sched_switch</c> with
/// call stacks and per-task switch records (<c>-p</c> the sessions' backends, so other processes cost nothing),
/// on CLOCK_MONOTONIC so its times line up with the executions. Writes <c>offcpu/perf.script.gz</c> (raw),
/// <c>offcpu/stacks.csv</c> and <c>offcpu/intervals.csv</c> (each stretch off the CPU with its session, state and stack).
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

    /// <summary>Creates the collector; its perf child belongs to the run of <paramref name="scope"/>.</summary>
    public OffCpuCollector(RunScope scope, int maxMegabytes = 512)
    {
        _scope = scope;
        _maxMegabytes = maxMegabytes;
    }

    /// <inheritdoc />
    public string Name => "offcpu";

    /// <inheritdoc />
    public async Task StartAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        _sessionOfPid = phase.Sessions.Where(s => s.BackendPid is not null).GroupBy(s => s.BackendPid!.Value).ToDictionary(g => g.Key, g => g.First().Session);
        if (_sessionOfPid.Count == 0)
        {
            throw new InvalidOperationException("no workload backend pid is known, so there is nothing to trace");
        }

        var description = $"perf record of sched_switch in phase {phase.Name} (run {_scope.RunId})";
        _child = PerfChild.Prepare(_scope, "offcpu-" + phase.Name, description);
        _dataPath = _child.DataPath;
        string[] arguments =
                 [
                     "record", "-e", "sched:sched_switch", "-g", "--switch-events", "-k", "CLOCK_MONOTONIC",
                     "-p", string.Join(',', _sessionOfPid.Keys.Select(p => p.ToString(CultureInfo.InvariantCulture))),
                     "-o", _dataPath, $"--max-size={_maxMegabytes}M",
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
                throw new InvalidOperationException($"perf record of sched_switch exited at once (exit {_perf.ExitCode}): {LastLine(await _stderr)}");
            }

            await Task.Delay(20, cancellationToken);
        }
    }

    /// <inheritdoc />
    public async Task<CollectorOutcome> StopAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        if (_perf is null || _dataPath is null)
        {
            return new CollectorOutcome(Name, CollectorStatus.Failed, 0, "not started");
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
            var parser = new SchedSwitchParser(_sessionOfPid.Keys.ToHashSet());
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
                writer.Write(Csv.Line(Ms(start), Ms(end), _sessionOfPid[i.Tid].ToString(CultureInfo.InvariantCulture), i.State.ToString(), i.StackId.ToString(CultureInfo.InvariantCulture)) + "\n");
            }
        });
    }

    private static string Ms(double ms) => ms.ToString("0.###", CultureInfo.InvariantCulture);

    private static void WriteAtomically(string path, Action<TextWriter> write) => Core.Files.AtomicFile.WriteText(path, write);

    private static string LastLine(string text) => text.Split('\n').LastOrDefault(l => l.Trim().Length > 0)?.Trim() ?? "";

}
