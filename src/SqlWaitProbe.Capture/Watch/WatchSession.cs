using System.Globalization;
using Serilog;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Files;
using SqlWaitProbe.Core.Watch;

namespace SqlWaitProbe.Capture.Watch;

/// <summary>
/// <c>probe watch</c>: attach windows in a ring, a light poll for the triggers, and a dump when one fires. A new window
/// opens every <c>--keep</c>, so one of them has always run at least <c>--keep</c> (after the first): when a trigger
/// fires, the newest window that opened <c>--keep</c> or more before it is ended <c>--after</c> the trigger and kept as an
/// ordinary attach bundle whose manifest says what fired; windows no trigger chose are ended and deleted once a newer
/// one holds <c>--keep</c> on its own, so at most two run while nothing fires. Every window is a whole attach capture of
/// the registered collectors (CPU stacks, waits, states, <c>pg_stat</c> snapshots, per-statement samples), nothing of
/// its own. It stops on Ctrl+C or SIGTERM (the caller's token), after <c>--max-dumps</c>, and survives a server restart.
/// </summary>
public sealed class WatchSession
{
    /// <summary>How often a lost server is tried again.</summary>
    public static readonly TimeSpan ReconnectEvery = TimeSpan.FromSeconds(2);

    /// <summary>The longest a window of <paramref name="settings"/> runs: twice --keep, then --after, with 30 s to spare.</summary>
    public static TimeSpan WindowLimit(WatchSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        return 2 * settings.Keep + settings.After + TimeSpan.FromSeconds(30);
    }

    /// <summary>The ring's folder name inside the output folder.</summary>
    public const string RingFolder = ".ring";

    private readonly WatchSettings _settings;
    private readonly IWatchableEngine _engine;
    private readonly IWatchHost _host;
    private readonly IProgress<string> _progress;
    private readonly Action<WatchDump> _dumped;
    private readonly List<WatchWindow> _windows = [];
    private readonly List<WatchDump> _dumps = [];
    private readonly TriggerEvaluator _evaluator;
    private int _windowNumber;
    private int _chosen;
    private DateTime _lastLaunchFailureUtc;
    private DateTime? _lastDumpTriggerUtc;
    private string? _stopReason;
    private string? _lastRefusal;
    private Func<string?>? _signalReason;
    private IWatchMonitor? _monitor;
    private DateTime? _lostAt;
    private DateTime _lastTry = DateTime.MinValue;
    private CancellationToken _windowsStop;
    private readonly WatchRing _ring;

    /// <summary>
    /// A watch of <paramref name="engine"/> (created from the same options as its windows'), with <paramref name="host"/>
    /// for the windows and analysis; <paramref name="dumped"/> is told of every dump once it is analysed.
    /// </summary>
    public WatchSession(WatchSettings settings, IWatchableEngine engine, IWatchHost host, IProgress<string> progress, Action<WatchDump> dumped)
    {
        _settings = settings;
        _engine = engine;
        _host = host;
        _progress = progress;
        _dumped = dumped;
        _evaluator = new TriggerEvaluator(settings.Triggers);
        _ring = new WatchRing(Core.Runtime.RunScope.NewCapture(), settings.Keep, settings.PollInterval);
    }

    /// <summary>Called once the watch runs (the monitor is open), e.g. to register signal handlers after the command line's own.</summary>
    public Action? Started { get; init; }

    /// <summary>Every window's run scope, for a forced exit that must leave no child process.</summary>
    public void KillAll()
    {
        _ring.KillAll();
        lock (_windows)
        {
            foreach (var w in _windows)
            {
                w.Request.Scope.KillAll();
                w.Request.Engine.KillNow();
            }
        }
    }

    /// <summary>
    /// Watches until <paramref name="stop"/> is cancelled (its reason from <paramref name="stopReason"/>) or the last
    /// dump is written. The output folder's lock is taken first: a second watch on it is refused (exit 2).
    /// </summary>
    public async Task<WatchOutcome> RunAsync(Func<string?> stopReason, CancellationToken stop)
    {
        ArgumentNullException.ThrowIfNull(stopReason);
        using var folderLock = WatchLock.Take(_settings.Output);
        var ring = Path.Combine(_settings.Output, RingFolder);
        ClearRing(ring);
        Directory.CreateDirectory(ring);
        var monitor = await _engine.OpenMonitorAsync(stop);
        _engine.OpenWhenNoneMatch = true;
        _progress.Report($"watching: keeps {Seconds(_settings.Keep)} before a trigger and {Seconds(_settings.After)} after; triggers {string.Join(", ", _settings.Triggers.Select(t => t.Text))}; dumps into {_settings.Output} (probe watch --dump {_settings.Output} asks for one)");
        Log.Information("watch into {Output}: keep {Keep} s, after {After} s, triggers {Triggers}, at most {MaxDumps} dumps, cool-down {CoolDown} s, disk budget {Budget} MB",
            _settings.Output, _settings.Keep.TotalSeconds, _settings.After.TotalSeconds, string.Join(" ", _settings.Triggers.Select(t => t.Text)), _settings.MaxDumps, _settings.CoolDown.TotalSeconds, _settings.DiskBudgetMegabytes);
        _signalReason = stopReason;
        Started?.Invoke();
        _monitor = monitor;
        using var windowsStop = CancellationTokenSource.CreateLinkedTokenSource(stop);
        _windowsStop = windowsStop.Token;
        var ended = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using var stopped = stop.Register(() => ended.TrySetResult());
        var loop = PollingLoop.Start("the watch", _settings.PollInterval, async token =>
        {
            try
            {
                if (await TickAsync(token))
                {
                    return true;
                }

                ended.TrySetResult();
                return false;
            }
            catch (Exception e) when (!token.IsCancellationRequested)
            {
                ended.TrySetException(e);
                return false;
            }
        }, cancellationToken: stop);
        try
        {
            await ended.Task;
        }
        finally
        {
            await loop.StopAsync();
            _stopReason ??= stopReason() ?? "ctrl-c";
            MarkUnchosenDiscarded();
            await windowsStop.CancelAsync();
            await DisposeQuietly(_monitor);
            await DrainAsync();
            await _ring.DisposeAsync();
            ClearRing(ring);
        }

        return new WatchOutcome(_dumps, _stopReason ?? "ctrl-c");
    }

    /// <summary>One poll: the server (or a try to reach it again), the ended windows, the ring, the triggers; false once the last dump is written.</summary>
    private async Task<bool> TickAsync(CancellationToken stop)
    {
        var now = DateTime.UtcNow;
        if (_monitor is null && now - _lastTry >= ReconnectEvery)
        {
            _lastTry = now;
            try
            {
                _monitor = await _engine.OpenMonitorAsync(stop);
                _progress.Report($"reconnected to the server after {Seconds(now - _lostAt!.Value)} without it; watching again");
                Log.Warning("reconnected to the server after {Seconds:0.0} s", (now - _lostAt.Value).TotalSeconds);
                _lostAt = null;
            }
            catch (EnvironmentProblemException e)
            {
                Log.Debug("the server is still away: {Error}", e.Message);
            }
        }

        WatchReading? read = null;
        if (_monitor is not null)
        {
            try
            {
                var reading = await _monitor.ReadAsync(stop);
                _evaluator.Add(reading, _host.ReadHost(reading));
                read = reading;
            }
            catch (Exception e) when (!stop.IsCancellationRequested)
            {
                _lostAt = DateTime.UtcNow;
                _lastTry = _lostAt.Value;
                _evaluator.Reset();
                _progress.Report($"lost the server ({BadInputException.Flatten(e.Message)}); reconnecting every {Seconds(ReconnectEvery)}");
                Log.Warning("lost the server: {Error}; reconnecting every {Seconds} s", e.Message, ReconnectEvery.TotalSeconds);
                await DisposeQuietly(_monitor);
                _monitor = null;
            }
        }

        await CollectAsync(stop);
        if (_dumps.Count >= _settings.MaxDumps && _chosen == 0)
        {
            _stopReason = "max-dumps";
            _progress.Report($"wrote {_dumps.Count} dump(s), the --max-dumps limit; the watch ends");
            return false;
        }

        Rotate(now, _lostAt is not null, _windowsStop);
        var firing = WatchDumpRequest.Take(_settings.Output)
            ? new TriggerFiring(TriggerSpec.Manual, 0, now)
            : _monitor is null ? null : _evaluator.Fired();
        if (firing is not null)
        {
            Choose(firing);
        }

        // After the choice, so a window a trigger chose is not quiet at this poll: its samplers go to their own pace now.
        _ring.Polled(read);
        EndDue(now);
        return true;
    }

    /// <summary>Opens a window every <c>--keep</c> and throws away those a newer window makes useless.</summary>
    private void Rotate(DateTime now, bool serverAway, CancellationToken windowsStop)
    {
        var running = _windows.Where(w => w.Run is { IsCompleted: false } && !w.Discarding).ToList();
        var newest = running.Where(w => w.Firing is null).MaxBy(w => w.LaunchedUtc);
        if (!serverAway && (newest is null || now - newest.LaunchedUtc >= _settings.Keep) && now - _lastLaunchFailureUtc >= ReconnectEvery)
        {
            Launch(windowsStop);
        }

        foreach (var w in running.Where(w => w.Firing is null))
        {
            // A newer window has held --keep on its own: every trigger from now on is served by it or a later one.
            if (running.Any(v => v.LaunchedUtc > w.LaunchedUtc && v.OpenedUtc is { } opened && now - opened >= _settings.Keep))
            {
                w.Discarding = true;
                w.End.Cancel();
                Log.Debug("window {Number} ended: a newer one holds --keep", w.Number);
            }
        }
    }

    private void Launch(CancellationToken windowsStop)
    {
        var number = ++_windowNumber;
        var folder = Path.Combine(_settings.Output, RingFolder, "w-" + number.ToString(CultureInfo.InvariantCulture));
        var longest = WindowLimit(_settings);
        var window = new WatchWindow(number, folder, DateTime.UtcNow, _settings.IdleSampleInterval, _ring);
        window.Request = _host.WindowRequest(folder, longest, window.End.Token, () => Trigger(window), () => _stopReason ?? _signalReason?.Invoke()) with { Ring = window.Ring };
        var request = window.Request;
        var opened = window;
        var progress = new Progress<string>(line =>
        {
            // The attach window reports its first line once its collectors run: the span of the bundle begins there.
            if (line.StartsWith("attached:", StringComparison.Ordinal))
            {
                opened.OpenedUtc ??= DateTime.UtcNow;
            }
            else
            {
                Log.Debug("window {Number}: {Line}", opened.Number, line);
            }
        });
        window.Run = Task.Run(() => CaptureSession.RunAsync(request, _host.WindowLog(), TextWriter.Null, progress, windowsStop), CancellationToken.None);
        lock (_windows)
        {
            _windows.Add(window);
        }

        Log.Information("window {Number} started into {Folder}", number, folder);
    }

    private BundleTrigger? Trigger(WatchWindow? window)
    {
        if (window?.Firing is not { } f)
        {
            return null;
        }

        return new BundleTrigger
        {
            Trigger = f.Trigger.Text,
            Kind = f.Trigger.Kind.ToString().ToLowerInvariant(),
            Threshold = f.Trigger.Threshold,
            Value = Math.Round(f.Value, 3),
            Unit = f.Trigger.Unit,
            FiredUtc = f.Utc,
            KeepSeconds = _settings.Keep.TotalSeconds,
            AfterSeconds = _settings.After.TotalSeconds,
        };
    }

    /// <summary>Picks the window a firing trigger keeps, unless a limit says no (each said once).</summary>
    private void Choose(TriggerFiring firing)
    {
        var manual = firing.Trigger.Kind == TriggerKind.Manual;
        string? refusal = null;
        if (_dumps.Count + _chosen >= _settings.MaxDumps)
        {
            refusal = $"--max-dumps {_settings.MaxDumps} reached";
        }
        else if (!manual && _lastDumpTriggerUtc is { } last && firing.Utc - last < _settings.CoolDown)
        {
            refusal = $"cooling down until {last + _settings.CoolDown:HH:mm:ss}Z (UTC, --cool-down {Seconds(_settings.CoolDown)})";
        }
        else if (FolderMegabytes(_settings.Output) is var used && used >= _settings.DiskBudgetMegabytes)
        {
            refusal = $"the output folder holds {used} MB, at the --disk-budget-mb {_settings.DiskBudgetMegabytes} MB";
        }

        var candidates = _windows.Where(w => w.Run is { IsCompleted: false } && !w.Discarding && w.Firing is null && w.OpenedUtc is not null).ToList();
        var window = candidates.Where(w => firing.Utc - w.OpenedUtc!.Value >= _settings.Keep).MaxBy(w => w.OpenedUtc)
            ?? candidates.MinBy(w => w.OpenedUtc);
        if (refusal is null && window is null)
        {
            refusal = "no window is open yet";
        }

        if (refusal is not null)
        {
            var line = $"{firing.Describe()}; not dumped: {refusal}";
            if (manual || refusal != _lastRefusal)
            {
                _progress.Report(line);
            }

            Log.Information("{Line}", line);
            _lastRefusal = refusal;
            return;
        }

        _lastRefusal = null;
        window!.Firing = firing;
        window.Ring.Chosen = true;
        window.EndDueUtc = firing.Utc + _settings.After;
        _chosen++;
        if (!manual)
        {
            _lastDumpTriggerUtc = firing.Utc;
        }

        var before = firing.Utc - window.OpenedUtc!.Value;
        var note = before < _settings.Keep ? $" (the watch began less than --keep ago: {Seconds(before)} before the trigger)" : "";
        _progress.Report($"{firing.Describe()}; dumping {Seconds(before)} before it and {Seconds(_settings.After)} after{note}");
        Log.Information("{Trigger}: window {Number} (opened {Opened:O}) becomes the dump", firing.Describe(), window.Number, window.OpenedUtc);
    }

    private void EndDue(DateTime now)
    {
        foreach (var w in _windows.Where(w => w.EndDueUtc is { } due && due <= now && !w.End.IsCancellationRequested))
        {
            w.End.Cancel();
        }
    }

    /// <summary>Deals with the windows that ended: a chosen one becomes a dump, the others are deleted.</summary>
    private async Task CollectAsync(CancellationToken stop)
    {
        foreach (var w in _windows.Where(w => w.Run is { IsCompleted: true }).ToList())
        {
            lock (_windows)
            {
                _windows.Remove(w);
            }

            await FinishAsync(w, stop);
        }
    }

    private async Task FinishAsync(WatchWindow w, CancellationToken stop)
    {
        CaptureOutcome? outcome = null;
        Exception? failure = null;
        try
        {
            outcome = await w.Run!;
        }
        catch (Exception e)
        {
            failure = e;
        }

        if (w.Firing is null)
        {
            if (failure is not null && !w.Discarding && !stop.IsCancellationRequested)
            {
                _lastLaunchFailureUtc = DateTime.UtcNow;
                Log.Warning("window {Number} failed: {Error}", w.Number, failure is EnvironmentProblemException env ? env.OneLine : failure.Message);
            }

            if (FolderRemoval.TryDelete(w.Folder) is { } error)
            {
                Log.Warning("could not remove window {Folder}: {Error}", w.Folder, error);
            }

            return;
        }

        _chosen--;
        var name = "dump-" + w.Firing.Utc.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture) + "Z-" + w.Firing.Trigger.Kind.ToString().ToLowerInvariant();
        var target = Path.Combine(_settings.Output, name);
        for (var i = 2; Directory.Exists(target) || File.Exists(target); i++)
        {
            target = Path.Combine(_settings.Output, name + "-" + i.ToString(CultureInfo.InvariantCulture));
        }

        Directory.Move(w.Folder, target);
        var status = outcome?.Status ?? BundleStatus.Failed;
        IReadOnlyList<string> findings = [];
        if (outcome is not null)
        {
            try
            {
                findings = await _host.AnalyseAsync(target, status, status == BundleStatus.Interrupted ? CancellationToken.None : stop);
            }
            catch (Exception e) when (e is not OperationCanceledException)
            {
                Log.Warning("the dump {Folder} was written but not analysed: {Error}; run probe analyze on it", target, e.Message);
            }
        }
        else
        {
            Log.Warning("the dump {Folder} failed: {Error}", target, failure?.Message);
        }

        var dump = new WatchDump(target, status, w.Firing.Describe(), findings);
        _dumps.Add(dump);
        _dumped(dump);
    }

    /// <summary>Ends every window and waits for them: chosen ones still become dumps (marked as their capture ended).</summary>
    private async Task DrainAsync()
    {
        List<WatchWindow> all;
        lock (_windows)
        {
            all = [.. _windows];
        }

        MarkUnchosenDiscarded();
        await Task.WhenAll(all.Select(w => w.Run ?? Task.FromResult<CaptureOutcome>(null!)).Select(t => t.ContinueWith(_ => { }, TaskScheduler.Default)));
        await CollectAsync(CancellationToken.None);
    }

    private void MarkUnchosenDiscarded()
    {
        lock (_windows)
        {
            foreach (var w in _windows.Where(w => w.Firing is null))
            {
                w.Discarding = true;
            }
        }
    }

    private static void ClearRing(string ring)
    {
        if (Directory.Exists(ring) && FolderRemoval.TryDelete(ring) is { } error)
        {
            Log.Warning("could not clear the ring {Folder}: {Error}", ring, error);
        }
    }

    private static long FolderMegabytes(string folder)
    {
        try
        {
            return new DirectoryInfo(folder).EnumerateFiles("*", new EnumerationOptions { RecurseSubdirectories = true, IgnoreInaccessible = true, AttributesToSkip = 0 })
                .Sum(f => f.Length) / (1024 * 1024);
        }
        catch (IOException)
        {
            return 0;
        }
    }

    private static async Task DisposeQuietly(IWatchMonitor? monitor)
    {
        if (monitor is null)
        {
            return;
        }

        try
        {
            await monitor.DisposeAsync();
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            Log.Debug("closing the watch's poll: {Error}", e.Message);
        }
    }

    private static string Seconds(TimeSpan span) => span.TotalSeconds.ToString("0.#", CultureInfo.InvariantCulture) + " s";
}
