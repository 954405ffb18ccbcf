using System.Diagnostics;
using System.Globalization;
using System.Text.RegularExpressions;
using SqlWaitProbe.Core.Os;

namespace SqlWaitProbe.Linux.PerfRecord;

/// <summary>
/// The one <c>perf record</c> of a watch, shared by its windows (<see cref="Core.Collectors.WatchRing.Shared{T}"/>), so
/// that an idle watch pays for one perf rather than one per window: a window's own perf cost a start each (perf reads
/// <c>/proc/kallsyms</c> and every process's maps as it starts) and two ran at once. It records every CPU on the boot
/// clock (<c>-k boottime</c>, the clock of <c>/proc/uptime</c>) into segments: on SIGUSR2 perf closes its file and opens
/// a new one (<c>--switch-output=signal</c>), which it does when a window opens and the open segment is older than
/// <see cref="RotateEvery"/>, and when a dump is cut. Each window leases the ring from when its collectors run; a dump
/// cuts its lease's span out of the segments (<c>perf script --time</c> of each); a segment no live lease reaches is
/// deleted, so the ring holds about two windows and one rotation of data. With no lease left (the server is away) perf
/// is stopped, and the next lease starts it again.
/// </summary>
public sealed partial class PerfRing : IAsyncDisposable
{
    /// <summary>The name windows share it under.</summary>
    public const string SharedName = "perf";

    private readonly PerfRecordOptions _options;
    private readonly SemaphoreSlim _gate = new(1, 1);
    private readonly Lock _segmentsGate = new();
    private readonly List<Segment> _segments = [];
    private readonly List<PerfLease> _leases = [];
    private PerfChild? _child;
    private Process? _perf;
    private int _generation;
    private double _openSince;
    private int _openGeneration;
    private TaskCompletionSource<string>? _switch;
    private string _lastError = "";
    private bool _disposed;

    /// <summary>A ring recording with <paramref name="options"/> (their scope is the watch's), rotating at most every <paramref name="rotateEvery"/>.</summary>
    public PerfRing(PerfRecordOptions options, TimeSpan rotateEvery)
    {
        ArgumentNullException.ThrowIfNull(options);
        _options = options;
        RotateEvery = rotateEvery;
    }

    /// <summary>The shortest time between two rotations a window's opening asks for: each costs perf a pass over every process's maps.</summary>
    public TimeSpan RotateEvery { get; }

    // Windows open every --keep, but the open segment began a little after the window before (perf's start or its
    // rotation took that long): a segment within a tenth of its age is rotated, not left to grow for another window.
    private const double RotateTolerance = 0.9;

    /// <summary>The closed segments the ring holds now, oldest first (for tests and the log).</summary>
    public IReadOnlyList<string> Segments
    {
        get
        {
            lock (_segmentsGate)
            {
                return [.. _segments.Select(s => s.Path)];
            }
        }
    }

    private double OpenSince
    {
        get
        {
            lock (_segmentsGate)
            {
                return _openSince;
            }
        }
    }

    /// <summary>The <c>perf record</c> command line after <c>perf</c>: a capture's, writing segments on SIGUSR2, stamped on the boot clock, without the build-id pass at each segment's end.</summary>
    public static IReadOnlyList<string> RecordArguments(PerfRecordOptions options, string dataPath) =>
        [.. PerfRecordCollector.RecordArguments(options, dataPath), "--switch-output=signal", "-k", "boottime", "-B"];

    /// <summary>A hold on the ring from now until released; starts perf when none runs.</summary>
    public async Task<PerfLease> LeaseAsync(CancellationToken cancellationToken)
    {
        await _gate.WaitAsync(cancellationToken);
        try
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            if (_perf is null || _perf.HasExited)
            {
                await StartLockedAsync(cancellationToken);
            }
            else if (Libc.BootTimeSeconds() - OpenSince >= RotateEvery.TotalSeconds * RotateTolerance)
            {
                await RotateLockedAsync(cancellationToken);
            }

            var lease = new PerfLease(this, Libc.BootTimeSeconds(), _generation, _perf!.Id);
            _leases.Add(lease);
            PruneLocked();
            return lease;
        }
        finally
        {
            _gate.Release();
        }
    }

    /// <summary>
    /// The segments that hold <paramref name="lease"/>'s span from its start to now, the open one closed first so all of
    /// it is on disk; they stay until the lease is released.
    /// </summary>
    internal async Task<PerfCut> CutAsync(PerfLease lease, CancellationToken cancellationToken)
    {
        await _gate.WaitAsync(cancellationToken);
        try
        {
            // The span ends as the signal is sent: perf reads its buffers before it closes the segment, so every sample
            // up to then is in a closed one, and those after it belong to the next window.
            string? problem = null;
            var end = Libc.BootTimeSeconds();
            if (lease.Generation == _generation && _perf is { HasExited: false })
            {
                await RotateLockedAsync(cancellationToken);
            }
            else
            {
                // perf ended during the window (its size cap, or it failed): what it closed before is kept.
                problem = $"perf stopped during the window (a segment reached --max-perf-mb {_options.MaxMegabytes} MB or it failed: {_lastError}); the stacks end where its last segment closed";
            }

            lock (_segmentsGate)
            {
                // A run of perf that ended took its run folder along once nothing else was recorded there.
                return new PerfCut([.. _segments.Where(s => s.Generation == lease.Generation && s.End >= lease.StartSeconds && s.Start <= end && File.Exists(s.Path)).Select(s => s.Path)], lease.StartSeconds, end, problem);
            }
        }
        finally
        {
            _gate.Release();
        }
    }

    /// <summary>Ends <paramref name="lease"/>: the segments only it held go, and perf stops with the last lease.</summary>
    internal async Task ReleaseAsync(PerfLease lease)
    {
        await _gate.WaitAsync();
        try
        {
            if (!_leases.Remove(lease) || _disposed)
            {
                return;
            }

            if (_leases.Count == 0)
            {
                await StopLockedAsync();
            }

            PruneLocked();
        }
        finally
        {
            _gate.Release();
        }
    }

    /// <summary>Kills perf (no closing pass: no one reads what is left) and deletes every segment.</summary>
    public async ValueTask DisposeAsync()
    {
        await _gate.WaitAsync();
        try
        {
            _disposed = true;
            _leases.Clear();
            await StopLockedAsync();
            PruneLocked();
        }
        finally
        {
            _gate.Release();
        }
    }

    /// <summary>The path a <c>[ perf record: Dump PATH ]</c> line of perf's names, or null for any other line.</summary>
    public static string? DumpedPath(string line)
    {
        ArgumentNullException.ThrowIfNull(line);
        var m = DumpLine().Match(line);
        return m.Success ? m.Groups["path"].Value : null;
    }

    private async Task StartLockedAsync(CancellationToken cancellationToken)
    {
        // The new run is recorded in the run folder before the old one is forgotten, so the folder (and the old run's
        // segments that windows still hold) stays; those segments go once no lease reaches them.
        var generation = ++_generation;
        var name = "perf-ring-" + generation.ToString(CultureInfo.InvariantCulture);
        var description = $"perf record of a watch's windows (run {_options.Scope.RunId})";
        var child = PerfChild.Prepare(_options.Scope, name, description);
        await StopLockedAsync();
        Process perf;
        try
        {
            perf = child.Start(RecordArguments(_options, child.DataPath), description);
        }
        catch
        {
            child.Finish();
            throw;
        }

        _child = child;
        _perf = perf;
        perf.StandardInput.Close();
        var errors = ReadErrorsAsync(perf.StandardError, generation);
        _ = perf.StandardOutput.ReadToEndAsync(CancellationToken.None);

        // perf writes its header once its events are open: from then on every CPU is sampled.
        var waited = Stopwatch.StartNew();
        while (!(File.Exists(child.DataPath) && new FileInfo(child.DataPath).Length > 0) && waited.Elapsed < TimeSpan.FromSeconds(5))
        {
            if (perf.HasExited)
            {
                var exit = perf.ExitCode;
                await errors.WaitAsync(TimeSpan.FromSeconds(2), CancellationToken.None).ContinueWith(_ => { }, TaskScheduler.Default);
                await StopLockedAsync();
                throw new InvalidOperationException($"perf record exited at once (exit {exit}): {_lastError}");
            }

            await Task.Delay(20, cancellationToken);
        }

        lock (_segmentsGate)
        {
            _openSince = Libc.BootTimeSeconds();
            _openGeneration = generation;
        }
    }

    private async Task RotateLockedAsync(CancellationToken cancellationToken)
    {
        var switched = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        Volatile.Write(ref _switch, switched);
        var perf = _perf!;
        var waited = Stopwatch.StartNew();

        // perf writes its file's header before its pass over every process's maps and takes SIGUSR2 only after that
        // pass: a signal in between is dropped (measured on a loaded machine: a perf just started never closed its
        // segment). The signal is sent again until perf answers; a second one it takes only adds a short segment.
        for (var wait = TimeSpan.FromMilliseconds(500); ; wait *= 2)
        {
            if (perf.HasExited || !Signals.Send(perf.Id, Signals.User2))
            {
                throw new InvalidOperationException($"perf record is gone: its segment could not be closed ({_lastError})");
            }

            var left = TimeSpan.FromSeconds(10) - waited.Elapsed;
            if (left <= TimeSpan.Zero)
            {
                throw new InvalidOperationException("perf record did not close its segment within 10 s of SIGUSR2");
            }

            try
            {
                await switched.Task.WaitAsync(wait < left ? wait : left, cancellationToken);
                return;
            }
            catch (TimeoutException)
            {
                // Not answered yet: signalled again.
            }
        }
    }

    private async Task StopLockedAsync()
    {
        if (_perf is not { } perf)
        {
            return;
        }

        _perf = null;
        _child?.Kill();
        _child = null;
        using var wait = new CancellationTokenSource(TimeSpan.FromSeconds(5));
        try
        {
            await perf.WaitForExitAsync(wait.Token);
        }
        catch (OperationCanceledException)
        {
            // Killed but not reaped in time: the kernel reaps it.
        }

        perf.Dispose();
    }

    /// <summary>Deletes the segments no live lease reaches: older than the oldest lease of perf's run, or of a run no lease holds.</summary>
    private void PruneLocked()
    {
        var held = _leases.GroupBy(l => l.Generation).ToDictionary(g => g.Key, g => g.Min(l => l.StartSeconds));
        lock (_segmentsGate)
        {
            foreach (var segment in _segments.ToArray())
            {
                if (!held.TryGetValue(segment.Generation, out var oldest) || segment.End < oldest)
                {
                    TryDelete(segment.Path);
                    _segments.Remove(segment);
                }
            }
        }
    }

    private async Task ReadErrorsAsync(StreamReader errors, int generation)
    {
        while (await errors.ReadLineAsync() is { } line)
        {
            if (DumpedPath(line) is { } path)
            {
                var now = Libc.BootTimeSeconds();
                lock (_segmentsGate)
                {
                    // The last segment of a run that ended after the next started opened when no one noted: from 0 it
                    // is taken for any span it might hold.
                    var current = generation == _openGeneration;
                    _segments.Add(new Segment(path, current ? _openSince : 0, now, generation));
                    if (current)
                    {
                        _openSince = now;
                    }
                }

                Volatile.Read(ref _switch)?.TrySetResult(path);
            }
            else if (line.Trim().Length > 0)
            {
                _lastError = line.Trim();
            }
        }
    }

    private static void TryDelete(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
        }
    }

    [GeneratedRegex(@"^\[ perf record: Dump (?<path>.+) \]$")]
    private static partial Regex DumpLine();

    private sealed record Segment(string Path, double Start, double End, int Generation);
}

/// <summary>One window's hold on a <see cref="PerfRing"/>, from when its collectors ran (boot-clock seconds).</summary>
public sealed class PerfLease
{
    private readonly PerfRing _ring;

    internal PerfLease(PerfRing ring, double startSeconds, int generation, int perfPid)
    {
        _ring = ring;
        StartSeconds = startSeconds;
        Generation = generation;
        PerfPid = perfPid;
    }

    /// <summary>Seconds since boot when the hold began: the dump's stacks start here.</summary>
    public double StartSeconds { get; }

    /// <summary>Which run of perf it holds (the ring starts perf again after it stopped).</summary>
    internal int Generation { get; }

    /// <summary>The perf recording it, whose samples are the probe's own.</summary>
    public int PerfPid { get; }

    /// <summary>The segments holding the span from <see cref="StartSeconds"/> to now.</summary>
    public Task<PerfCut> CutAsync(CancellationToken cancellationToken) => _ring.CutAsync(this, cancellationToken);

    /// <summary>Ends the hold.</summary>
    public Task ReleaseAsync() => _ring.ReleaseAsync(this);
}

/// <summary>
/// A window's span in a ring's segments: <c>perf script --time START,END</c> of each, in order, is its stacks;
/// <paramref name="Problem"/> says why they may end early.
/// </summary>
public sealed record PerfCut(IReadOnlyList<string> Segments, double StartSeconds, double EndSeconds, string? Problem)
{
    /// <summary>The <c>perf script</c> command lines after <c>perf</c>, one per segment, as a capture's (<see cref="PerfRecordCollector.ScriptArguments"/>) cut to the span.</summary>
    public IReadOnlyList<IReadOnlyList<string>> ScriptRuns() =>
    [
        .. Segments.Select(s => (IReadOnlyList<string>)
        [
            .. PerfRecordCollector.ScriptArguments(s),
            "--time", string.Create(CultureInfo.InvariantCulture, $"{StartSeconds:0.000000},{EndSeconds:0.000000}"),
        ]),
    ];
}
