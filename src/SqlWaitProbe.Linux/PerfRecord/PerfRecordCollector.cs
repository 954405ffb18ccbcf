using System.Diagnostics;
using System.Globalization;
using System.IO.Compression;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Linux.Perf;

namespace SqlWaitProbe.Linux.PerfRecord;

/// <summary>
/// CPU stacks of every process for the phase window: <c>perf record -a --call-graph MODE -F HZ</c> as a child process, stopped
/// with SIGINT so it finishes its file, then <c>perf script</c> into <c>cpu/perf.script.gz</c> and the
/// normaliser into the bundle's stack files. In a watch's window it starts no perf of its own: it leases the watch's
/// one (<see cref="PerfRing"/>) and a dump cuts its span out of it.
/// </summary>
public sealed class PerfRecordCollector : ICollector
{
    private readonly PerfRecordOptions _options;
    private Process? _perf;
    private int _perfPid;
    private PerfChild? _child;
    private PerfControl? _control;
    private string? _dataPath;
    private string? _stderrPath;
    private Stopwatch? _window;
    private Proc.ProcessTreeRecorder? _processes;
    private PerfLease? _lease;

    /// <summary>The shortest time between two rotations of a watch's perf (<see cref="PerfRing.RotateEvery"/>) walking frame pointers, whatever its <c>--keep</c>.</summary>
    public static readonly TimeSpan RingRotateAtLeast = TimeSpan.FromSeconds(30);

    /// <summary>
    /// How often a watch's perf starts a new segment: every <paramref name="keep"/> (each window's opening) with DWARF
    /// call graphs, else every <paramref name="keep"/> but no more often than <see cref="RingRotateAtLeast"/>. Each
    /// rotation costs perf a pass over every process's maps; with DWARF each second of a busy CPU is about 4 MB, so the
    /// ring rotates at every window to hold about as much as the windows reach (the call-graph choice bounded a window's
    /// data within the cap, not 30 s of it).
    /// </summary>
    public static TimeSpan RingRotation(TimeSpan keep, string callGraph) =>
        callGraph == PerfCallGraph.Dwarf || keep >= RingRotateAtLeast ? keep : RingRotateAtLeast;

    public PerfRecordCollector(PerfRecordOptions options)
    {
        _options = options;
    }

    /// <inheritdoc />
    public string Name => "perf";

    /// <inheritdoc />
    public async Task StartAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        if (phase.Ring?.Watch is { } watch)
        {
            await LeaseAsync(phase, watch, cancellationToken);
            return;
        }

        var description = $"perf record of phase {phase.Name} (run {_options.Scope.RunId})";
        _child = PerfChild.Prepare(_options.Scope, "perf-" + phase.Name, description);
        _dataPath = _child.DataPath;
        _stderrPath = _dataPath + ".log";
        if (_options.WorkloadRootPid is not null)
        {
            _processes = new Proc.ProcessTreeRecorder(_options.WorkloadRootPid, []);
            _processes.Start();
        }
        else if (_options.WorkloadPids.Count > 0)
        {
            // The sessions' backends as they come and go (attach mode follows new connections).
            _processes = new Proc.ProcessTreeRecorder(phase.Live);
            _processes.Start();
        }

        _control = PerfControl.Create(_dataPath);
        _perf = _child.Start([.. RecordArguments(_options, _dataPath), .. _control?.Arguments ?? []], description);
        _perfPid = _perf.Id;
        _perf.StandardInput.Close();
        _ = CopyToFileAsync(_perf.StandardError, _stderrPath);
        _ = _perf.StandardOutput.ReadToEndAsync(CancellationToken.None);

        // With control FIFOs, perf acknowledges "enable" once it has recorded the running processes and its events
        // sample: the phase released after this is sampled from its first execution.
        if (_control is not null)
        {
            // perf that ended on its own after writing data (its --max-size reached while it recorded the running
            // processes, with a cap of a megabyte or so) is a phase whose perf stopped early: the stop says so.
            if (await _control.EnableAsync(_perf, cancellationToken) is { } problem
                && !(_perf.HasExited && File.Exists(_dataPath) && new FileInfo(_dataPath).Length > 0))
            {
                _control.Dispose();
                throw new InvalidOperationException($"{problem}: {LastLine(_stderrPath)}");
            }

            _window = Stopwatch.StartNew();
            return;
        }

        // Without them (perf before 5.12): perf writes its header once its events are open.
        var waited = Stopwatch.StartNew();
        while (!(File.Exists(_dataPath) && new FileInfo(_dataPath).Length > 0) && waited.Elapsed < TimeSpan.FromSeconds(5))
        {
            if (_perf.HasExited)
            {
                throw new InvalidOperationException($"perf record exited at once (exit {_perf.ExitCode}): {LastLine(_stderrPath)}");
            }

            await Task.Delay(20, cancellationToken);
        }

        _window = Stopwatch.StartNew();
    }

    /// <inheritdoc />
    public async Task<CollectorOutcome> StopAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        if (_lease is not null)
        {
            return await StopLeaseAsync(phase, cancellationToken);
        }

        if (_perf is null || _dataPath is null || _window is null)
        {
            if (_processes is not null)
            {
                await _processes.DisposeAsync();
            }

            return new CollectorOutcome(Name, CollectorStatus.Failed, 0, "not started");
        }

        if (phase.Ring is { Discarded: true })
        {
            return await DiscardAsync(_perf, _child, _processes, Name);
        }

        var seconds = _window.Elapsed.TotalSeconds;
        var stoppedItself = _perf.HasExited;
        try
        {
            if (!stoppedItself && !await PerfStopper.InterruptAsync(_perf, cancellationToken))
            {
                return new CollectorOutcome(Name, CollectorStatus.Failed, 0, "perf record did not stop on SIGINT and was killed; its data is lost");
            }

            var workload = _processes is null ? null : new WorkloadProcesses(_options.ServerProcess, await _processes.StopAsync());
            var lost = await PerfLostSamples.ReadAsync(_dataPath, cancellationToken);
            var scriptPath = phase.PathFor(BundlePaths.PerfScript(phase.Name));
            await WritePerfScriptAsync(_dataPath, scriptPath, cancellationToken);
            var problems = new List<string>();
            if (stoppedItself)
            {
                problems.Add($"perf stopped early: its data reached --max-perf-mb ({_options.MaxMegabytes} MB) or it failed ({LastLine(_stderrPath)})");
            }

            try
            {
                PerfScriptNormalizer.Normalize(phase.BundleRoot, phase.Name, _options.SampleHz, _options.LogicalCpus, seconds, _options.CallGraph,
                    workload, _processes is null ? null : (_processes.WindowStartSeconds, _processes.WindowEndSeconds), lost ?? 0, _options.CallGraphReason,
                    probePids: [Environment.ProcessId, _perfPid]);
            }
            catch (BadInputException e)
            {
                // perf wrote something the reader rejects: keep the raw text, say why the stacks are missing.
                problems.Add("perf.script.gz written but not normalised: " + e.OneLine);
            }

            if (lost is null)
            {
                problems.Add("perf report --stats did not say how many samples were lost; the phase records 0");
            }

            return new CollectorOutcome(Name, problems.Count == 0 ? CollectorStatus.Ok : CollectorStatus.Partial, lost ?? 0, problems.Count == 0 ? null : string.Join("; ", problems));
        }
        finally
        {
            if (_processes is not null)
            {
                await _processes.DisposeAsync();
            }

            _child?.Finish();
            _control?.Dispose();
            _perf.Dispose();
        }
    }

    /// <summary>A watch's window: the backends followed as in attach mode, and a hold on the watch's one perf from now.</summary>
    private async Task LeaseAsync(PhaseContext phase, WatchRing watch, CancellationToken cancellationToken)
    {
        _processes = new Proc.ProcessTreeRecorder(phase.Live, ring: phase.Ring);
        _processes.Start();
        try
        {
            var ring = watch.Shared(PerfRing.SharedName, () => new PerfRing(_options with { Scope = watch.Scope }, RingRotation(watch.Keep, _options.CallGraph)));
            _lease = await ring.LeaseAsync(cancellationToken);
            _perfPid = _lease.PerfPid;
            _window = Stopwatch.StartNew();
        }
        catch
        {
            await _processes.DisposeAsync();
            _processes = null;
            throw;
        }
    }

    /// <summary>
    /// Ends a watch window's hold: a window thrown away converts nothing; a dump's span is cut out of the ring's
    /// segments and converted as a capture's perf data is. The samples perf lost are counted over the whole segments the
    /// span touches, never fewer than the span lost.
    /// </summary>
    private async Task<CollectorOutcome> StopLeaseAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        var lease = _lease!;
        try
        {
            if (phase.Ring is { Discarded: true })
            {
                return new CollectorOutcome(Name, CollectorStatus.Ok, 0, "window thrown away by the watch: not converted");
            }

            var seconds = _window!.Elapsed.TotalSeconds;
            var cut = await lease.CutAsync(cancellationToken);
            var workload = _processes is null ? null : new WorkloadProcesses(_options.ServerProcess, await _processes.StopAsync());
            var problems = new List<string>();
            if (cut.Problem is { } stopped)
            {
                problems.Add(stopped);
            }

            long lost = 0;
            var lostKnown = true;
            foreach (var segment in cut.Segments)
            {
                var n = await PerfLostSamples.ReadAsync(segment, cancellationToken);
                lostKnown &= n is not null;
                lost += n ?? 0;
            }

            await OffCpu.PerfScriptRunner.WriteGzipAsync(cut.ScriptRuns(), phase.PathFor(BundlePaths.PerfScript(phase.Name)), "stacks", cancellationToken);
            try
            {
                PerfScriptNormalizer.Normalize(phase.BundleRoot, phase.Name, _options.SampleHz, _options.LogicalCpus, seconds, _options.CallGraph,
                    workload, _processes is null ? null : (_processes.WindowStartSeconds, _processes.WindowEndSeconds), lost, _options.CallGraphReason,
                    probePids: [Environment.ProcessId, _perfPid]);
            }
            catch (BadInputException e)
            {
                problems.Add("perf.script.gz written but not normalised: " + e.OneLine);
            }

            if (!lostKnown)
            {
                problems.Add("perf report --stats did not say how many samples were lost; the phase records those it could read");
            }

            return new CollectorOutcome(Name, problems.Count == 0 ? CollectorStatus.Ok : CollectorStatus.Partial, lost, problems.Count == 0 ? null : string.Join("; ", problems));
        }
        finally
        {
            await lease.ReleaseAsync();
            if (_processes is not null)
            {
                await _processes.DisposeAsync();
            }
        }
    }

    /// <summary>
    /// Ends the perf of a window its watch throws away: killed, not interrupted, so perf skips its closing pass over the
    /// data (build ids), and neither <c>perf script</c> nor the normaliser runs; the data file goes with the run folder.
    /// </summary>
    internal static async Task<CollectorOutcome> DiscardAsync(Process perf, PerfChild? child, Proc.ProcessTreeRecorder? processes, string name)
    {
        try
        {
            child?.Kill();
            using var wait = new CancellationTokenSource(TimeSpan.FromSeconds(5));
            try
            {
                await perf.WaitForExitAsync(wait.Token);
            }
            catch (OperationCanceledException)
            {
                // Killed but not reaped in time: the process scope's record is gone, the kernel reaps it.
            }

            return new CollectorOutcome(name, CollectorStatus.Ok, 0, "window thrown away by the watch: not converted");
        }
        finally
        {
            if (processes is not null)
            {
                await processes.DisposeAsync();
            }

            perf.Dispose();
        }
    }

    /// <summary>
    /// The perf record command line after <c>perf</c>: every CPU, the call-graph mode, rate, ring buffer, output and size
    /// cap. With DWARF each sample copies 8 KiB of stack: perf's default buffer (512 KiB per CPU) fills in about a tenth
    /// of a second at 499 Hz, so a busy machine loses samples whenever perf waits longer than that; the buffer then
    /// holds about a second per CPU (<see cref="DwarfBufferMegabytes"/>).
    /// </summary>
    public static IReadOnlyList<string> RecordArguments(PerfRecordOptions options, string dataPath) =>
    [
        // cpu-clock on every machine (perf picks cycles where the CPU has counters): weights are then always ns.
        "record", "-a", "-e", "cpu-clock", .. PerfCallGraph.RecordArguments(options.CallGraph),
        "-F", options.SampleHz.ToString(CultureInfo.InvariantCulture),
        .. options.CallGraph == PerfCallGraph.Dwarf ? (string[])["-m", string.Create(CultureInfo.InvariantCulture, $"{DwarfBufferMegabytes(options.LogicalCpus)}M")] : [],
        "-o", dataPath, $"--max-size={options.MaxMegabytes}M", .. PerfVersion.SidebandArguments(),
    ];

    /// <summary>
    /// perf's ring buffer per CPU for DWARF call graphs, MB: 4 (about a second of samples at 499 Hz), less on machines
    /// with many CPUs so the buffers stay within 256 MB of locked memory in all; a power of two, as perf wants.
    /// </summary>
    public static int DwarfBufferMegabytes(int logicalCpus)
    {
        var megabytes = 4;
        while (megabytes > 1 && megabytes * Math.Max(1, logicalCpus) > 256)
        {
            megabytes /= 2;
        }

        return megabytes;
    }

    /// <summary>
    /// The perf script command line after <c>perf</c>. <c>--no-inline</c>: perf prints an inlined function without its
    /// module, and for glibc's versioned symbols it prints no real frame after the chain either, so the module of
    /// such frames would be lost; without inline expansion every frame is the real function with its module, and
    /// perf script does not run addr2line for every address, which is most of its time with DWARF call graphs.
    /// <c>-F +pid</c>: each sample names its process as well as its thread, so the CPU of a many-threaded process
    /// (another .NET process, the probe itself) adds up under one pid.
    /// </summary>
    public static IReadOnlyList<string> ScriptArguments(string dataPath) => ["script", "-F", "+pid", "--no-inline", "-i", dataPath];

    private static Task WritePerfScriptAsync(string dataPath, string scriptPath, CancellationToken cancellationToken) =>
        OffCpu.PerfScriptRunner.WriteGzipAsync(ScriptArguments(dataPath), scriptPath, "stacks", cancellationToken);

    private static async Task CopyToFileAsync(StreamReader reader, string path)
    {
        await using var writer = new StreamWriter(path);
        while (await reader.ReadLineAsync() is { } line)
        {
            await writer.WriteLineAsync(line);
        }
    }

    private static string LastLine(string? path) =>
        path is not null && File.Exists(path) ? File.ReadAllLines(path).LastOrDefault(l => l.Trim().Length > 0)?.Trim() ?? "" : "";

    private static void TryDelete(string? path)
    {
        try
        {
            if (path is not null)
            {
                File.Delete(path);
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
        }
    }
}
