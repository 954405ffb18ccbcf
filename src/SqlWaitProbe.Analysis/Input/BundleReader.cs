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
    public static IReadOnlyList<PhaseData> ReadPhases(CaptureBundle bundle, IReadOnlyList<IAnalysisModule> modules, CancellationToken cancellationToken = default)
    {
        var phases = new List<PhaseData>();
        foreach (var phase in bundle.Manifest.Phases)
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (bundle.Has(BundlePaths.Executions(phase.Name)) || bundle.Manifest.IsAttachWindow(phase))
            {
                phases.Add(ReadPhase(bundle, phase, modules, cancellationToken));
            }
        }

        return phases;
    }

    /// <summary>Reads one phase: the files of the runner and the shared collector files here, then each module's own.</summary>
    public static PhaseData ReadPhase(CaptureBundle bundle, BundlePhase phase, IReadOnlyList<IAnalysisModule> modules, CancellationToken cancellationToken = default)
    {
        var data = ReadSharedFiles(bundle, phase, cancellationToken);
        foreach (var module in modules)
        {
            cancellationToken.ThrowIfCancellationRequested();
            data = module.Read(data, bundle, cancellationToken);
        }

        return data;
    }

    private static PhaseData ReadSharedFiles(CaptureBundle bundle, BundlePhase phase, CancellationToken cancellationToken)
    {
        var name = phase.Name;
        var serverProcess = bundle.Manifest.ServerProcess;
        var window = bundle.Manifest.IsAttachWindow(phase);
        return new PhaseData
        {
            Phase = phase,
            AttachMode = bundle.Manifest.IsAttach,
            IsAttachWindow = window,
            Executions = window && !bundle.Has(BundlePaths.Executions(name))
                ? new ExecutionStats(0, 0, 0, 0, 0, new LatencyStats(0, 0, 0, 0))
                : ReadExecutions(bundle, BundlePaths.Executions(name), phase.WindowMs),
            Sessions = ReadSessions(bundle, BundlePaths.Sessions(name)),
            Waits = ReadWaits(bundle, BundlePaths.Waits(name)),
            Statements = Statements.StatementReader.Read(bundle, name),
            OffCpu = OffCpuReader.Read(bundle, name),
            Series = ReadSeries(bundle, BundlePaths.Series(name), phase.StartUtc),
            Stacks = ReadStacks(bundle, BundlePaths.Stacks(name), cancellationToken) ?? ReadSpeedscopeStacks(bundle, BundlePaths.SpeedscopeStacks(name)),
            Processes = ReadProcesses(bundle, BundlePaths.Processes(name)),
            ProcessCpu = ReadProcessCpu(bundle, BundlePaths.ProcessCpu(name)),
            Timeline = ReadTimeline(bundle, BundlePaths.StackTimeline(name), serverProcess),
            Sampling = ReadJson<SamplingInfo>(bundle, BundlePaths.StackInfo(name)),
            Overhead = ReadJson<OverheadInfo>(bundle, BundlePaths.Overhead(name)),
        };
    }

    /// <summary>
    /// executions.csv: <c>session,start_ms,end_ms,rows,error[,cancelled]</c>, counted by <see cref="ExecutionTally"/> over the phase's
    /// window of <paramref name="windowMs"/> (null in bundles that did not record it: nothing is cut).
    /// </summary>
    public static ExecutionStats ReadExecutions(CaptureBundle bundle, string relative, double? windowMs = null)
    {
        using var csv = CsvFile.Open(bundle, relative, BundleColumns.Executions.Session, BundleColumns.Executions.StartMs, BundleColumns.Executions.EndMs)
            ?? throw new BadInputException("executions.csv is missing; every phase needs it", bundle.PathOf(relative));
        var tally = new ExecutionTally(windowMs);
        var sessions = new HashSet<string>(StringComparer.Ordinal);
        var spans = new Dictionary<int, ExecutionSpan>();
        while (csv.Read())
        {
            var start = csv.Number(BundleColumns.Executions.StartMs);
            var end = csv.Number(BundleColumns.Executions.EndMs);
            if (end < start)
            {
                throw new BadInputException($"end_ms {end} is before start_ms {start}", relative, csv.LineNumber);
            }

            // A session's span of executions ends at the window's end at the latest: the parts of the ledger are
            // measured inside it, as the collectors were.
            var inWindow = Math.Max(start, tally.InWindowEnd(end));
            if (int.TryParse(csv.Text(BundleColumns.Executions.Session), System.Globalization.NumberStyles.Integer, System.Globalization.CultureInfo.InvariantCulture, out var number))
            {
                spans[number] = spans.TryGetValue(number, out var span)
                    ? new ExecutionSpan(Math.Min(span.StartMs, start), Math.Max(span.EndMs, inWindow), span.BusyMs + inWindow - start, span.Executions + 1)
                    : new ExecutionSpan(start, inWindow, inWindow - start, 1);
            }

            tally.Add(start, end, csv.Text(BundleColumns.Executions.Error).Length > 0,
                csv.HasColumn(BundleColumns.Executions.Cancelled) && csv.Text(BundleColumns.Executions.Cancelled) == "1");
            sessions.Add(csv.Text(BundleColumns.Executions.Session));
        }

        var counts = tally.Counts();
        return new ExecutionStats(counts.Executions, counts.Errors, counts.SessionMs, counts.Executions == 0 ? 0 : (counts.LastEndMs - counts.FirstStartMs) / 1000, sessions.Count,
            new LatencyStats(counts.P50, counts.P95, counts.P99, counts.Max), spans)
        {
            Counts = counts,
        };
    }

    private static SessionTotals? ReadSessions(CaptureBundle bundle, string relative)
    {
        using var csv = CsvFile.Open(bundle, relative, BundleColumns.Sessions.Session, BundleColumns.Sessions.CpuMs);
        if (csv is null)
        {
            return null;
        }

        int rows = 0;
        double cpu = 0, runQueue = 0;
        var anyRunQueue = false;
        var pids = new Dictionary<int, int>();
        while (csv.Read())
        {
            rows++;
            if (csv.OptionalNumber(BundleColumns.Sessions.BackendPid) is { } pid && pid is > 0 and <= int.MaxValue
                && int.TryParse(csv.Text(BundleColumns.Sessions.Session), System.Globalization.NumberStyles.Integer, System.Globalization.CultureInfo.InvariantCulture, out var number))
            {
                pids[number] = (int)pid;
            }

            cpu += csv.OptionalNumber(BundleColumns.Sessions.CpuMs) ?? 0;
            if (csv.OptionalNumber(BundleColumns.Sessions.RunQueueMs) is { } rq)
            {
                runQueue += rq;
                anyRunQueue = true;
            }
        }

        return new SessionTotals(rows, cpu, anyRunQueue ? runQueue : null) { BackendPids = pids };
    }

    private static List<WaitRow>? ReadWaits(CaptureBundle bundle, string relative)
    {
        using var csv = CsvFile.Open(bundle, relative, BundleColumns.Waits.Scope, BundleColumns.Waits.WaitType, BundleColumns.Waits.WaitMs);
        if (csv is null)
        {
            return null;
        }

        var rows = new List<WaitRow>();
        while (csv.Read())
        {
            rows.Add(new WaitRow(csv.Text(BundleColumns.Waits.Scope), csv.Text(BundleColumns.Waits.WaitType), csv.Text(BundleColumns.Waits.Category), csv.Number(BundleColumns.Waits.WaitMs),
                csv.OptionalNumber(BundleColumns.Waits.SignalMs) ?? 0, (long)(csv.OptionalNumber(BundleColumns.Waits.WaitingTasks) ?? 0)));
        }

        return rows;
    }

    private static SeriesSet? ReadSeries(CaptureBundle bundle, string relative, DateTime phaseStart)
    {
        using var csv = CsvFile.Open(bundle, relative, BundleColumns.Series.Utc, BundleColumns.Series.Name, BundleColumns.Series.Value);
        if (csv is null)
        {
            return null;
        }

        var set = new SeriesSet();
        DateTime? origin = phaseStart == default ? null : phaseStart;
        while (csv.Read())
        {
            var utc = csv.Utc(BundleColumns.Series.Utc);
            origin ??= utc;
            var second = (long)Math.Floor((utc - origin.Value).TotalSeconds);
            var name = csv.Text(BundleColumns.Series.Name);
            if (!set.Series.TryGetValue(name, out var series))
            {
                set.Series[name] = series = new SortedDictionary<long, double>();
            }

            series[second] = csv.Number(BundleColumns.Series.Value);
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

    // Another profiler's export as the CPU source: its profiles are the processes, its weights the samples.
    private static StackProfile? ReadSpeedscopeStacks(CaptureBundle bundle, string relative)
    {
        if (!bundle.Has(relative))
        {
            return null;
        }

        using var stream = File.OpenRead(bundle.PathOf(relative));
        return SpeedscopeReader.Read(stream, relative).Profile;
    }

    /// <summary>cpu/process_cpu.csv: <c>pid,name,role,cpu_ms,samples</c>; a role other than workload or probe reads as other.</summary>
    private static List<ProcessCpu>? ReadProcessCpu(CaptureBundle bundle, string relative)
    {
        using var csv = CsvFile.Open(bundle, relative, BundleColumns.ProcessCpu.Pid, BundleColumns.ProcessCpu.Name, BundleColumns.ProcessCpu.CpuMs);
        if (csv is null)
        {
            return null;
        }

        var rows = new List<ProcessCpu>();
        while (csv.Read())
        {
            var role = csv.Text(BundleColumns.ProcessCpu.Role) is ProcessCpu.Workload or ProcessCpu.Probe ? csv.Text(BundleColumns.ProcessCpu.Role) : ProcessCpu.Other;
            rows.Add(new ProcessCpu(
                (int)Math.Min(csv.Count(BundleColumns.ProcessCpu.Pid), int.MaxValue),
                BundleNames.Shorten(csv.Text(BundleColumns.ProcessCpu.Name)),
                role,
                csv.Count(BundleColumns.ProcessCpu.CpuMs),
                csv.HasColumn(BundleColumns.ProcessCpu.Samples) ? (long)csv.Count(BundleColumns.ProcessCpu.Samples) : 0));
        }

        return rows;
    }

    private static List<WorkloadProcess>? ReadProcesses(CaptureBundle bundle, string relative)
    {
        using var csv = CsvFile.Open(bundle, relative, BundleColumns.Processes.Pid, BundleColumns.Processes.StartTicks);
        if (csv is null)
        {
            return null;
        }

        var processes = new List<WorkloadProcess>();
        while (csv.Read())
        {
            double Optional(string column) => csv.HasColumn(column) ? csv.OptionalNumber(column) ?? 0 : 0;
            processes.Add(new WorkloadProcess(
                (int)Math.Clamp(csv.Number(BundleColumns.Processes.Pid), 0, int.MaxValue),
                (int)Math.Clamp(Optional(BundleColumns.Processes.ParentPid), 0, int.MaxValue),
                csv.HasColumn(BundleColumns.Processes.Name) ? csv.Text(BundleColumns.Processes.Name) : "",
                (long)Math.Clamp(csv.Number(BundleColumns.Processes.StartTicks), 0, long.MaxValue),
                Optional(BundleColumns.Processes.StartSeconds),
                Optional(BundleColumns.Processes.LastSeenSeconds),
                csv.HasColumn(BundleColumns.Processes.RunningAtEnd) && csv.Text(BundleColumns.Processes.RunningAtEnd) == "1"));
        }

        return processes;
    }

    private static CpuTimeline? ReadTimeline(CaptureBundle bundle, string relative, string serverProcess)
    {
        using var csv = CsvFile.Open(bundle, relative, BundleColumns.StackTimeline.Second, BundleColumns.StackTimeline.Process, BundleColumns.StackTimeline.Module, BundleColumns.StackTimeline.Kernel, BundleColumns.StackTimeline.Weight);
        if (csv is null)
        {
            return null;
        }

        var timeline = new CpuTimeline();
        while (csv.Read())
        {
            if (serverProcess.Length > 0 && !string.Equals(csv.Text(BundleColumns.StackTimeline.Process), serverProcess, StringComparison.Ordinal))
            {
                continue;
            }

            var second = (long)csv.Count(BundleColumns.StackTimeline.Second);
            var target = csv.Text(BundleColumns.StackTimeline.Kernel) is "1" or "true" ? timeline.Kernel : timeline.User;
            target[second] = target.GetValueOrDefault(second) + csv.Count(BundleColumns.StackTimeline.Weight);
        }

        return timeline;
    }

    private static T? ReadJson<T>(CaptureBundle bundle, string relative)
        where T : class
    {
        if (bundle.ReadSmallText(relative) is not { } text)
        {
            return null;
        }

        try
        {
            return JsonSerializer.Deserialize<T>(text, ProbeJson.Options)
                ?? throw new BadInputException("the file holds null, not an object", relative, 1);
        }
        catch (JsonException e)
        {
            throw new BadInputException($"not valid JSON ({e.Message.Split('.')[0]})", relative, (e.LineNumber ?? 0) + 1);
        }
    }
}
