using Serilog;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Dmv;

namespace SqlWaitProbe.SqlServer.Xe;

/// <summary>
/// Runs the probe's XE sessions for one phase: creates and starts them filtered to the phase's sessions,
/// then reads the histograms, stops, reads the events back, writes <c>xe/*.csv</c> and drops the sessions.
/// </summary>
public sealed class XeCollector : ICollector
{
    private readonly Func<string, CancellationToken, Task<ISqlCommandSink>> _open;
    private readonly Func<PhaseContext, XeSessionOptions> _optionsFor;
    private readonly IReadOnlyList<XeStream> _streams;
    private ISqlCommandSink? _sink;
    private XeSessionBuilder? _builder;
    private readonly List<XeStream> _started = [];
    private string? _pagesField = "number_pages";
    private bool? _callstackRva;
    private RunFolder? _run;
    private RunScope? _scope;
    private ServerClock _clock = ServerClock.Same;
    private string? _readNote;

    /// <summary>Creates the collector for <paramref name="streams"/>; the capture's <paramref name="scope"/> records its sessions for <c>probe cleanup</c>.</summary>
    public XeCollector(Func<string, CancellationToken, Task<ISqlCommandSink>> open, Func<PhaseContext, XeSessionOptions> optionsFor, IReadOnlyList<XeStream> streams, RunScope? scope = null)
    {
        _scope = scope;
        _open = open;
        _optionsFor = optionsFor;
        _streams = streams;
    }

    /// <inheritdoc />
    public string Name => "xe-" + string.Join('-', _streams.Select(s => s.ToString().ToLowerInvariant()));

    /// <inheritdoc />
    public async Task StartAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        _sink ??= await _open("xe", cancellationToken);
        if (_streams.Contains(XeStream.Latches))
        {
            _callstackRva ??= await DiscoverCallstackRvaAsync(cancellationToken);
        }

        _builder = new XeSessionBuilder(_optionsFor(phase) with { CallstackRva = _callstackRva ?? true });
        if (_streams.Contains(XeStream.Pages))
        {
            _clock = await ServerClock.MeasureAsync(_sink, cancellationToken);
            if (_sink is RecordingSqlSink clockRecorder)
            {
                clockRecorder.Note("the answer against this machine's clock corrects the page events' times before they are kept to the phase's window");
            }
            else if (_clock.Offset.Duration() > _clock.Uncertainty)
            {
                Log.Information("the server's clock is {Offset} ms ahead of this machine's (±{Uncertainty} ms); XE event times are corrected by it",
                    (long)_clock.Offset.TotalMilliseconds, (long)Math.Ceiling(_clock.Uncertainty.TotalMilliseconds));
            }
        }
        foreach (var stream in _streams)
        {
            var fields = await _sink.QueryAsync(XeSessionBuilder.DiscoverFields(stream), cancellationToken);
            if (_sink is RecordingSqlSink recorder)
            {
                recorder.Note(stream == XeStream.Pages
                    ? "the answer decides the pages session: without a memory_clerk_name field the capture stops (run without --xe pages); the page count is read from number_pages, else from the first field whose name holds 'pages'"
                    : $"the answer lists the latch event's fields for the log; the session above is built from the call-stack answer. Cost: every latch_acquired of the watched sessions walks a call stack (microseconds each, on the latching thread), at most {_builder.EventCap(XeStream.Latches).ToString("N0", System.Globalization.CultureInfo.InvariantCulture)} walks per phase (package0.counter), after which the event takes no action");
            }

            CheckFields(stream, fields);
            await _sink.ExecuteAsync(_builder.DropIfExists(stream), cancellationToken);
            if (!_sink.IsDryRun)
            {
                // Recorded before the session exists: after a kill, 'probe cleanup --server' drops exactly this session.
                _scope ??= new RunScope("capture", _builder.Options.RunId);
                _run = _scope.Record(_ => new RunResource
                {
                    Name = "xe-" + stream.ToString().ToLowerInvariant(),
                    Description = "XE session " + _builder.Options.SessionName(stream),
                    XeSession = _builder.Options.SessionName(stream),
                    XeEventFiles = stream == XeStream.Pages ? [_builder.Options.FileName(stream)] : [],
                });
            }

            await _sink.ExecuteAsync(_builder.Create(stream), cancellationToken);
            _started.Add(stream);
            await _sink.ExecuteAsync(_builder.Start(stream), cancellationToken);
        }
    }

    /// <inheritdoc />
    public async Task<CollectorOutcome> StopAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        if (_sink is null || _builder is null)
        {
            return new CollectorOutcome(Name, CollectorStatus.Failed, 0, "never started");
        }

        long dropped = 0;
        string? error = null;
        foreach (var stream in _started.ToList())
        {
            try
            {
                dropped += await FinishAsync(phase, stream);
            }
            catch (Exception e) when (e is Microsoft.Data.SqlClient.SqlException or IOException or System.Xml.XmlException)
            {
                error = $"{stream}: {e.Message}";
                Log.Warning("XE {Stream} read failed: {Message}", stream, e.Message);
            }
            finally
            {
                await DropQuietlyAsync(stream);
            }
        }

        var dryRun = _sink.IsDryRun;
        if (_sink is IAsyncDisposable disposable)
        {
            await disposable.DisposeAsync();
            _sink = null;
        }

        if (dryRun)
        {
            return new CollectorOutcome(Name, CollectorStatus.Skipped, 0, "dry run");
        }

        var status = error is not null ? CollectorStatus.Partial : dropped > 0 ? CollectorStatus.Partial : CollectorStatus.Ok;
        var losses = dropped > 0 ? $"{dropped} events dropped by the server (ALLOW_SINGLE_EVENT_LOSS)" : null;
        var message = string.Join("; ", new[] { error, losses, _readNote }.Where(m => m is not null));
        return new CollectorOutcome(Name, status, dropped, message.Length == 0 ? null : message);
    }

    /// <summary>Stops and drops every session this collector started (Ctrl+C path); never throws.</summary>
    public async Task DropAllAsync()
    {
        if (_sink is null)
        {
            return;
        }

        foreach (var stream in _started.ToList())
        {
            await DropQuietlyAsync(stream);
        }
    }

    private async Task<long> FinishAsync(PhaseContext phase, XeStream stream)
    {
        var none = CancellationToken.None;
        var histogram = await _sink!.QueryAsync(_builder!.ReadHistogram(stream), none);
        var stats = await _sink.QueryAsync(_builder.ReadSessionStats(stream), none);
        var dropped = stats.Rows.Count > 0 ? DmvSnapshot.Number(stats.Get(0, "dropped_event_count")) : 0;
        var currentFile = stats.Rows.Count > 0 ? stats.Get(0, "current_file") as string : null;
        await _sink.ExecuteAsync(_builder.Stop(stream), none);

        var folder = BundlePaths.Xe(phase.Name);
        var histogramFile = stream == XeStream.Pages ? "clerk_histogram.csv" : "latch_callstacks.csv";
        if (!_sink.IsDryRun)
        {
            BundleCsv.Write(phase.PathFor($"{folder}/{histogramFile}"), "value,count",
                histogram.Rows.Select(r => Csv.Line(DmvSnapshot.Text(r[0]), Csv.Number(DmvSnapshot.Number(r[1])))));
        }

        if (stream == XeStream.Pages)
        {
            await ReadPageEventsAsync(phase, folder, currentFile);
        }

        return dropped;
    }

    private async Task ReadPageEventsAsync(PhaseContext phase, string folder, string? currentFile)
    {
        var pattern = currentFile is null ? null : XeFiles.PatternOf(currentFile);
        var events = new List<PageEvent>();
        // A server on this machine: keep the files as the server wrote them and read them here; else read through the server.
        var copies = pattern is null || _sink!.IsDryRun ? [] : XeFiles.CopyLocal(pattern, phase.PathFor(folder + "/files"));
        var readLocally = false;
        if (copies.Count > 0)
        {
            try
            {
                events.AddRange(copies.SelectMany(f => XelFileReader.ReadPageEvents(f, _pagesField)));
                readLocally = await ServerAgreesAsync(pattern!, events);
                if (!readLocally)
                {
                    events.Clear();
                }
            }
            catch (Core.Errors.BadInputException e)
            {
                Log.Warning("reading the copied event files failed ({Message}); reading them through the server", e.OneLine);
                _readNote = $"page events read through the server: the .xel reader failed on the copies ({e.OneLine})";
                events.Clear();
            }
        }

        if (!readLocally)
        {
            await foreach (var row in _sink!.StreamAsync(_builder!.ReadEventFiles(pattern), CancellationToken.None))
            {
                events.Add(XeEventXml.ToPageEvent((string)row[1]!, _pagesField));
            }

            if (pattern is not null && !_sink.IsDryRun)
            {
                // T-SQL cannot delete files without xp_cmdshell, which the probe never uses.
                Log.Warning("the XE event files {Pattern} stay on the server (up to {Mb} MB); delete them there (T-SQL cannot)",
                    pattern, _builder.Options.MaxFileMegabytes);
            }
        }

        if (copies.Count > 0)
        {
            // The bundle keeps the copies; the originals would pile up in the server's LOG folder phase after phase.
            XeFiles.DeleteOriginals(pattern!);
        }

        if (_sink!.IsDryRun)
        {
            return;
        }

        events = InWindow(events, phase, _clock);
        events.Sort((a, b) => a.Utc.CompareTo(b.Utc));
        BundleCsv.Write(phase.PathFor(BundlePaths.XePageEvents(phase.Name)), BundleColumns.Header(BundleColumns.XePageEvents.All),
            events.Select(e => Csv.Line(BundleCsv.Utc(e.Utc), e.Event, e.SessionId is { } s ? Csv.Number(s) : "", e.MemoryClerkName, Csv.Number(e.Pages))));
        foreach (var g in events.GroupBy(e => (Second: new DateTime(e.Utc.Ticks - e.Utc.Ticks % TimeSpan.TicksPerSecond, DateTimeKind.Utc), e.Event)))
        {
            phase.Series.Add(g.Key.Second, g.Key.Event == "page_freed" ? "xe.pages_freed_per_sec" : "xe.pages_allocated_per_sec", g.Sum(e => e.Pages));
        }
    }

    /// <summary>
    /// The events on this machine's clock that fall inside the phase's window: the session starts before the window opens
    /// and stops after it closes, and a file read by pattern must never lend one phase's events to another.
    /// </summary>
    internal static List<PageEvent> InWindow(IEnumerable<PageEvent> events, PhaseContext phase, ServerClock clock)
    {
        var shifted = events.Select(e => e with { Utc = clock.ToLocal(e.Utc) });
        return phase.StartUtc == default || phase.EndUtc <= phase.StartUtc
            ? [.. shifted]
            : [.. shifted.Where(e => e.Utc >= phase.StartUtc && e.Utc <= phase.EndUtc)];
    }

    /// <summary>
    /// True when the server counts, event by event name, what the probe's reader found in the copies: a reader that
    /// missed events (an unknown layout, an event it could not name) must not pass for a phase without page events.
    /// </summary>
    private async Task<bool> ServerAgreesAsync(string pattern, IReadOnlyList<PageEvent> found)
    {
        var counts = await _sink!.QueryAsync(_builder!.CountEventFiles(pattern), CancellationToken.None);
        var server = counts.Rows.ToDictionary(r => DmvSnapshot.Text(r[0]), r => DmvSnapshot.Number(r[1]), StringComparer.Ordinal);
        var local = found.GroupBy(e => e.Event, StringComparer.Ordinal).ToDictionary(g => g.Key, g => (long)g.Count(), StringComparer.Ordinal);
        if (server.Count == local.Count && server.All(s => local.GetValueOrDefault(s.Key) == s.Value))
        {
            return true;
        }

        var said = string.Join(", ", server.OrderBy(s => s.Key, StringComparer.Ordinal).Select(s => $"{s.Key} {s.Value}"));
        _readNote = $"page events read through the server: the .xel reader found {found.Count} events in the copies, the server counts {(said.Length == 0 ? "none" : said)}";
        Log.Warning("{Note}", _readNote);
        return false;
    }

    /// <summary>Asks the server whether it has <c>package0.callstack_rva</c>; a dry run notes what each answer changes.</summary>
    private async Task<bool> DiscoverCallstackRvaAsync(CancellationToken cancellationToken)
    {
        var result = await _sink!.QueryAsync(XeSessionBuilder.DiscoverCallstackActions(), cancellationToken);
        if (_sink is RecordingSqlSink recorder)
        {
            recorder.Note($"if the answer lists callstack_rva, the latch session collects {XeNames.CallstackRva} (module+offset, symbolisable); otherwise {XeNames.Callstack} (raw addresses). The statements below show callstack_rva");
            return true;
        }

        var names = result.Rows.Select(r => DmvSnapshot.Text(r[result.IndexOf("name")])).ToHashSet(StringComparer.Ordinal);
        var rva = names.Contains("callstack_rva");
        Log.Information("XE call stacks: {Action} (the server {Has} package0.callstack_rva)", rva ? XeNames.CallstackRva : XeNames.Callstack, rva ? "has" : "lacks");
        return rva;
    }

    private void CheckFields(XeStream stream, SqlResult fields)
    {
        if (fields.Rows.Count == 0)
        {
            // Dry run, or a server without the events: the create statement will report the latter.
            return;
        }

        var names = fields.Rows.Select(r => DmvSnapshot.Text(r[fields.IndexOf("name")])).ToHashSet(StringComparer.Ordinal);
        if (stream == XeStream.Pages)
        {
            if (!names.Contains("memory_clerk_name"))
            {
                throw new Core.Errors.EnvironmentProblemException("this server's sqlos.page_allocated event has no memory_clerk_name field; --xe pages cannot bucket by clerk.", "Run without --xe pages.");
            }

            _pagesField = names.Contains("number_pages") ? "number_pages" : names.FirstOrDefault(n => n.Contains("pages", StringComparison.Ordinal));
        }
    }

    private async Task DropQuietlyAsync(XeStream stream)
    {
        try
        {
            await _sink!.ExecuteAsync(_builder!.DropIfExists(stream), CancellationToken.None);
            _started.Remove(stream);
            _run?.Forget("xe-" + stream.ToString().ToLowerInvariant());
        }
        catch (Microsoft.Data.SqlClient.SqlException e)
        {
            Log.Warning("could not drop XE session {Session}: {Message}; 'probe cleanup --server' removes it", _builder!.Options.SessionName(stream), e.Message);
        }
    }
}
