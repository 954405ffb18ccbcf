using System.Text.Json;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Analysis.Input;

/// <summary>Reads a bundle's per-phase files (docs/bundle-format.md). Only executions.csv is required; big files are streamed.</summary>
public static class BundleReader
{
    /// <summary>Reads every phase the manifest lists whose executions.csv exists, and the attach window (which has none), in the order they ran.</summary>
    public static IReadOnlyList<PhaseData> ReadPhases(CaptureBundle bundle, CancellationToken cancellationToken = default)
    {
        var phases = new List<PhaseData>();
        foreach (var phase in bundle.Manifest.Phases)
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (bundle.Has(BundlePaths.Executions(phase.Name)) || IsAttachWindow(bundle, phase))
            {
                phases.Add(ReadPhase(bundle, phase, cancellationToken));
            }
        }

        return phases;
    }

    /// <summary>Reads one phase.</summary>
    public static PhaseData ReadPhase(CaptureBundle bundle, BundlePhase phase, CancellationToken cancellationToken = default)
    {
        var name = phase.Name;
        var serverProcess = bundle.Manifest.ServerProcess;
        return new PhaseData
        {
            Phase = phase,
            Executions = IsAttachWindow(bundle, phase) && !bundle.Has(BundlePaths.Executions(name))
                ? new ExecutionStats(0, 0, 0, 0, 0, new LatencyStats(0, 0, 0, 0))
                : ReadExecutions(bundle, BundlePaths.Executions(name)),
            Sessions = ReadSessions(bundle, BundlePaths.Sessions(name)),
            Waits = ReadWaits(bundle, BundlePaths.Waits(name)),
            SessionTimeline = ReadSessionTimeline(bundle, BundlePaths.SessionTimeline(name)),
            WaitSamples = ReadWaitSamples(bundle, BundlePaths.WaitSamples(name)),
            OffCpu = OffCpuReader.Read(bundle, name),
            Series = ReadSeries(bundle, BundlePaths.Series(name), phase.StartUtc),
            Stacks = ReadStacks(bundle, BundlePaths.Stacks(name), cancellationToken),
            Timeline = ReadTimeline(bundle, BundlePaths.StackTimeline(name), serverProcess),
            Sampling = ReadJson<SamplingInfo>(bundle, BundlePaths.StackInfo(name)),
            Overhead = ReadJson<OverheadInfo>(bundle, BundlePaths.Overhead(name)),
            Spinlocks = ReadSpinlocks(bundle, BundlePaths.Dmv(name) + "/spinlock_stats.csv"),
            XePages = ReadXePages(bundle, BundlePaths.Xe(name) + "/page_events.csv", phase.StartUtc, cancellationToken),
        };
    }

    /// <summary>True for the phase of an attach capture: no workload ran, so it has no executions.csv.</summary>
    public static bool IsAttachWindow(CaptureBundle bundle, BundlePhase phase) => bundle.Manifest.Workload == "attach" && phase.Threads == 0;

    /// <summary>executions.csv: <c>session,start_ms,end_ms,rows,error</c>.</summary>
    public static ExecutionStats ReadExecutions(CaptureBundle bundle, string relative)
    {
        using var csv = CsvFile.Open(bundle, relative, "session", "start_ms", "end_ms")
            ?? throw new BadInputException("executions.csv is missing; every phase needs it", bundle.PathOf(relative));
        var durations = new List<float>();
        double sum = 0, first = double.MaxValue, last = double.MinValue;
        long errors = 0;
        var sessions = new HashSet<string>(StringComparer.Ordinal);
        var spans = new Dictionary<int, ExecutionSpan>();
        while (csv.Read())
        {
            var start = csv.Number("start_ms");
            var end = csv.Number("end_ms");
            if (end < start)
            {
                throw new BadInputException($"end_ms {end} is before start_ms {start}", relative, csv.LineNumber);
            }

            if (int.TryParse(csv.Text("session"), System.Globalization.NumberStyles.Integer, System.Globalization.CultureInfo.InvariantCulture, out var number))
            {
                spans[number] = spans.TryGetValue(number, out var span)
                    ? new ExecutionSpan(Math.Min(span.StartMs, start), Math.Max(span.EndMs, end), span.BusyMs + end - start, span.Executions + 1)
                    : new ExecutionSpan(start, end, end - start, 1);
            }

            sum += end - start;
            durations.Add((float)(end - start));
            first = Math.Min(first, start);
            last = Math.Max(last, end);
            sessions.Add(csv.Text("session"));
            if (csv.Text("error").Length > 0)
            {
                errors++;
            }
        }

        durations.Sort();
        var latency = durations.Count == 0
            ? new LatencyStats(0, 0, 0, 0)
            : new LatencyStats(Percentile(durations, 0.50), Percentile(durations, 0.95), Percentile(durations, 0.99), durations[^1]);
        return new ExecutionStats(durations.Count, errors, sum, durations.Count == 0 ? 0 : (last - first) / 1000, sessions.Count, latency, spans);
    }

    private static double Percentile(List<float> sorted, double p)
    {
        // Nearest-rank percentile: the smallest value with at least p of the values at or below it.
        var rank = (int)Math.Ceiling(p * sorted.Count);
        return sorted[Math.Clamp(rank - 1, 0, sorted.Count - 1)];
    }

    private static SessionTotals? ReadSessions(CaptureBundle bundle, string relative)
    {
        using var csv = CsvFile.Open(bundle, relative, "session", "cpu_ms");
        if (csv is null)
        {
            return null;
        }

        int rows = 0;
        double cpu = 0, runQueue = 0;
        var anyRunQueue = false;
        while (csv.Read())
        {
            rows++;
            cpu += csv.OptionalNumber("cpu_ms") ?? 0;
            if (csv.OptionalNumber("run_queue_ms") is { } rq)
            {
                runQueue += rq;
                anyRunQueue = true;
            }
        }

        return new SessionTotals(rows, cpu, anyRunQueue ? runQueue : null);
    }

    private static SessionTimeline? ReadSessionTimeline(CaptureBundle bundle, string relative)
    {
        using var csv = CsvFile.Open(bundle, relative, "ms", "session", "cpu_ms", "run_queue_ms");
        if (csv is null)
        {
            return null;
        }

        var timeline = new SessionTimeline();
        var last = new Dictionary<int, double>();
        while (csv.Read())
        {
            var session = (int)csv.Number("session");
            var ms = csv.Number("ms");
            if (last.TryGetValue(session, out var previous) && ms < previous)
            {
                throw new BadInputException($"ms {ms} of session {session} is before its previous reading ({previous})", relative, csv.LineNumber);
            }

            last[session] = ms;
            timeline.Add(session, ms, csv.Number("cpu_ms"), csv.Number("run_queue_ms"));
        }

        return timeline;
    }

    private static List<WaitSample>? ReadWaitSamples(CaptureBundle bundle, string relative)
    {
        using var csv = CsvFile.Open(bundle, relative, "ms", "session", "wait_type", "wait_ms");
        if (csv is null)
        {
            return null;
        }

        var rows = new List<WaitSample>();
        while (csv.Read())
        {
            rows.Add(new WaitSample(csv.Number("ms"), csv.OptionalNumber("session") is { } s ? (int)s : null, string.Intern(csv.Text("wait_type")), csv.Number("wait_ms")));
        }

        return rows;
    }

    private static List<WaitRow>? ReadWaits(CaptureBundle bundle, string relative)
    {
        using var csv = CsvFile.Open(bundle, relative, "scope", "wait_type", "wait_ms");
        if (csv is null)
        {
            return null;
        }

        var rows = new List<WaitRow>();
        while (csv.Read())
        {
            rows.Add(new WaitRow(csv.Text("scope"), csv.Text("wait_type"), csv.Text("category"), csv.Number("wait_ms"),
                csv.OptionalNumber("signal_ms") ?? 0, (long)(csv.OptionalNumber("waiting_tasks") ?? 0)));
        }

        return rows;
    }

    private static SeriesSet? ReadSeries(CaptureBundle bundle, string relative, DateTime phaseStart)
    {
        using var csv = CsvFile.Open(bundle, relative, "utc", "series", "value");
        if (csv is null)
        {
            return null;
        }

        var set = new SeriesSet();
        DateTime? origin = phaseStart == default ? null : phaseStart;
        while (csv.Read())
        {
            var utc = csv.Utc("utc");
            origin ??= utc;
            var second = (long)Math.Floor((utc - origin.Value).TotalSeconds);
            var name = csv.Text("series");
            if (!set.Series.TryGetValue(name, out var series))
            {
                set.Series[name] = series = new SortedDictionary<long, double>();
            }

            series[second] = csv.Number("value");
        }

        return set;
    }

    private static StackProfile? ReadStacks(CaptureBundle bundle, string relative, CancellationToken cancellationToken)
    {
        using var reader = bundle.OpenText(relative);
        if (reader is null)
        {
            return null;
        }

        cancellationToken.ThrowIfCancellationRequested();
        var profile = new StackProfile();
        FoldedStackFormat.ReadInto(reader, relative, profile, firstFrameIsProcess: true);
        return profile;
    }

    private static CpuTimeline? ReadTimeline(CaptureBundle bundle, string relative, string serverProcess)
    {
        using var csv = CsvFile.Open(bundle, relative, "second", "process", "module", "kernel", "weight");
        if (csv is null)
        {
            return null;
        }

        var timeline = new CpuTimeline();
        while (csv.Read())
        {
            if (serverProcess.Length > 0 && !string.Equals(csv.Text("process"), serverProcess, StringComparison.Ordinal))
            {
                continue;
            }

            var second = (long)csv.Number("second");
            var target = csv.Text("kernel") is "1" or "true" ? timeline.Kernel : timeline.User;
            target[second] = target.GetValueOrDefault(second) + csv.Number("weight");
        }

        return timeline;
    }

    private static List<SpinlockRow>? ReadSpinlocks(CaptureBundle bundle, string relative)
    {
        using var csv = CsvFile.Open(bundle, relative, "name", "spins");
        if (csv is null)
        {
            return null;
        }

        var rows = new List<SpinlockRow>();
        while (csv.Read())
        {
            rows.Add(new SpinlockRow(csv.Text("name"), csv.OptionalNumber("collisions") ?? 0, csv.Number("spins"),
                csv.OptionalNumber("backoffs") ?? 0, csv.OptionalNumber("sleep_time") ?? 0));
        }

        return rows;
    }

    private static XePageStats? ReadXePages(CaptureBundle bundle, string relative, DateTime phaseStart, CancellationToken cancellationToken)
    {
        using var csv = CsvFile.Open(bundle, relative, "utc", "event", "memory_clerk_name", "pages");
        if (csv is null)
        {
            return null;
        }

        var stats = new XePageStats();
        DateTime? origin = phaseStart == default ? null : phaseStart;
        while (csv.Read())
        {
            if ((stats.Events & 0xFFFF) == 0)
            {
                cancellationToken.ThrowIfCancellationRequested();
            }

            var utc = csv.Utc("utc");
            origin ??= utc;
            var key = ((long)Math.Floor((utc - origin.Value).TotalSeconds), string.Intern(csv.Text("memory_clerk_name")));
            var pages = csv.Number("pages");
            var current = stats.PerSecond.GetValueOrDefault(key);
            var ev = csv.Text("event");
            stats.Events++;
            if (ev.Contains("free", StringComparison.OrdinalIgnoreCase))
            {
                stats.FreeEvents++;
                stats.PerSecond[key] = (current.Allocated, current.Freed + pages);
            }
            else if (ev.Contains("alloc", StringComparison.OrdinalIgnoreCase))
            {
                stats.AllocEvents++;
                stats.PerSecond[key] = (current.Allocated + pages, current.Freed);
            }
            else
            {
                throw new BadInputException($"event '{ev}' is neither page_allocated nor page_freed", relative, csv.LineNumber);
            }
        }

        return stats;
    }

    private static T? ReadJson<T>(CaptureBundle bundle, string relative)
        where T : class
    {
        if (!bundle.Has(relative))
        {
            return null;
        }

        try
        {
            return JsonSerializer.Deserialize<T>(File.ReadAllText(bundle.PathOf(relative)), ProbeJson.Options)
                ?? throw new BadInputException("the file holds null, not an object", relative, 1);
        }
        catch (JsonException e)
        {
            throw new BadInputException($"not valid JSON ({e.Message.Split('.')[0]})", relative, (e.LineNumber ?? 0) + 1);
        }
    }
}
