using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Etl;
using SqlWaitProbe.Etl.Model;
using SqlWaitProbe.Windows.OffCpu;
using SqlWaitProbe.Windows.Symbols;

namespace SqlWaitProbe.Windows.Etw;

/// <summary>
/// Everything after the ETW session, on any OS: reads the phase's .etl with the managed reader and writes the
/// bundle's <c>cpu/stacks.folded</c>, <c>cpu/timeline.csv</c>, <c>cpu/sampling.json</c> (and <c>cpu/processes.csv</c>,
/// <c>offcpu/*.csv</c>) — the same files the perf path writes. Module-level files come first; a second read names
/// functions where the trace names them (JIT-compiled .NET code) or a symbol lookup does (Windows, by each image's PDB
/// identity), and rewrites the stacks. Without a lookup, <c>sampling.json</c> says why symbols were not resolved.
/// </summary>
public static class EtlPhaseConversion
{
    /// <summary>The reason given when no symbol lookup ran because this is not Windows.</summary>
    public const string NotWindows = "not resolved: function names come from PDBs looked up on Windows (by each image's PDB identity in the trace); read elsewhere, frames keep their module";

    /// <summary>
    /// Converts <paramref name="etlPath"/> into <paramref name="phase"/>'s files. <paramref name="symbols"/> is the
    /// lookup (Windows) or null, with <paramref name="noSymbolsReason"/> saying why; <paramref name="sessionLost"/> the
    /// events the session reported lost; <paramref name="fallbackStartUtc"/>/<paramref name="fallbackEndUtc"/> the
    /// collector's own times, used when the phase did not set its own.
    /// </summary>
    public static EtlConversionResult Write(PhaseContext phase, string etlPath, EtlConversionSettings settings, EtlSymbolLookup? symbols, string noSymbolsReason,
        long sessionLost, DateTime fallbackStartUtc, DateTime fallbackEndUtc, IProgress<string> progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(phase);
        ArgumentNullException.ThrowIfNull(settings);
        ArgumentNullException.ThrowIfNull(progress);
        var phaseStart = phase.StartUtc == default ? fallbackStartUtc : phase.StartUtc;
        var phaseEnd = phase.EndUtc == default ? fallbackEndUtc : phase.EndUtc;

        // Reading is never cancelled: Ctrl+C keeps what was recorded and only skips the symbol lookups.
        progress.Report("reading the ETW trace");
        var (first, mapping, switches) = Read(etlPath, settings, phaseStart, EtwSymbolMode.ModulesOnly, EtlFrameNaming.ModulesOnly);
        var info = first.Info;

        // Windows may round the requested interval; the trace records the one it used.
        var intervalMSec = first.Statistics.SampleIntervalMSec ?? settings.IntervalMSec;
        var facts = new EtwSamplingFacts("etw", Math.Round(1000.0 / intervalMSec), mapping.SampleCount, Math.Max(sessionLost, info.EventsLost),
            Math.Max(0, (phaseEnd - phaseStart).TotalSeconds), info.NumberOfProcessors > 0 ? info.NumberOfProcessors : Environment.ProcessorCount)
        {
            Symbols = noSymbolsReason,
        };
        EtwStackFiles.Write(phase.BundleRoot, phase.Name, mapping, facts);
        if (settings.Workload is { } workload)
        {
            EtwStackFiles.WriteAtomically(phase.PathFor(BundlePaths.Processes(phase.Name)), workload.Write);
        }

        var (offCpu, offCpuProblem) = WriteOffCpu(phase, settings, switches, phaseStart, EtwSymbolMode.ModulesOnly, progress);

        // The off-CPU files are whole now; symbols only rename their frames. Their collector reports at once rather than
        // after the symbol lookup, which may take its whole budget.
        if (settings.OffCpu)
        {
            settings.OffCpuOutcome?.Set(offCpu is not null
                ? EtwOffCpuFiles.Outcome(offCpu, facts.LostSamples)
                : new CollectorOutcome(EtwOffCpuFiles.CollectorName, CollectorStatus.Failed, 0, offCpuProblem ?? "the off-CPU files were not written"));
        }

        if (mapping.SampleCount == 0)
        {
            return new EtlConversionResult(mapping, facts, offCpu, offCpuProblem);
        }

        Func<EtlImage, ulong, string?>? names = null;
        if (symbols is not null)
        {
            try
            {
                cancellationToken.ThrowIfCancellationRequested();
                var (found, status) = BoundedSymbolLookup.Run(symbols, first, SymbolResolutionPlan.Choose(mapping, settings.ServerProcess), mapping.ModuleFiles,
                    settings.SymbolBudget, progress, cancellationToken);
                (names, facts) = (found, facts with { Symbols = status });
            }
            catch (OperationCanceledException)
            {
                progress.Report("symbol loading interrupted; the stacks keep module-level frames");
                facts = facts with { Symbols = "not resolved: the capture was interrupted before symbols loaded; frames keep their module" };
            }
        }

        // JIT-compiled methods are named by the runtime's events, often only in the rundown at the end of the trace: the
        // second read finds them through the first.
        var jit = first.Processes.Any(first.HasMethods) ? JitLookup(first) : null;
        if (names is not null || jit is not null)
        {
            var naming = new EtlFrameNaming(names, jit);
            var (_, resolved, resolvedSwitches) = Read(etlPath, settings, phaseStart, EtwSymbolMode.Resolved, naming);
            EtwStackFiles.WriteStacks(phase.BundleRoot, phase.Name, resolved.Profile);

            // JIT-compiled code's module is its assembly once named, in the timeline as in the stacks.
            EtwStackFiles.WriteTimeline(phase.BundleRoot, phase.Name, resolved.Timeline);
            if (offCpu is not null)
            {
                WriteOffCpu(phase, settings, resolvedSwitches, phaseStart, EtwSymbolMode.Resolved, progress);
            }
        }

        EtwStackFiles.WriteFacts(phase.BundleRoot, phase.Name, facts);
        return new EtlConversionResult(mapping, facts, offCpu, offCpuProblem);
    }

    private static (EtlTraceReader Reader, EtwStackMapping Mapping, EtlThreadSwitchSource? Switches) Read(string etlPath, EtlConversionSettings settings,
        DateTime phaseStart, EtwSymbolMode mode, EtlFrameNaming naming)
    {
        using var file = EtlFile.Open(etlPath, BundleLimits.Current);
        // The probe recorded this trace itself: a stack whose cached frames never came stays partial rather than failing the phase.
        var reader = EtlTraceReader.Open(file.Stream, file.Name, new EtlLimits { UndefinedStackKeysAreDamage = false });
        var builder = new EtwStackMappingBuilder(reader.Info.StartUtc, phaseStart, mode, workload: settings.Workload);
        var switches = settings.OffCpu && settings.ServerPid is { } pid ? new EtlThreadSwitchSource(pid, reader.Info.StartUtc, naming) : null;
        reader.Read(new EtlEtwSink(builder, switches, naming));
        return (reader, builder.Build(), switches);
    }

    private static (EtwOffCpuSummary? Summary, string? Problem) WriteOffCpu(PhaseContext phase, EtlConversionSettings settings, EtlThreadSwitchSource? switches,
        DateTime phaseStart, EtwSymbolMode mode, IProgress<string> progress)
    {
        if (!settings.OffCpu)
        {
            return (null, null);
        }

        if (switches is null)
        {
            return (null, "the server's process id is unknown (SERVERPROPERTY('ProcessID')), so its threads cannot be told apart");
        }

        var summary = EtwOffCpuFiles.Write(phase, switches, settings.ServerProcess, phaseStart, mode);
        if (mode == EtwSymbolMode.ModulesOnly)
        {
            progress.Report(EtwOffCpuFiles.Progress(summary));
        }

        return (summary, null);
    }

    // A process of a later read of the same file is the one with the same id and start.
    private static Func<EtlProcess, ulong, EtlManagedMethod?> JitLookup(EtlTraceReader first)
    {
        var byIdentity = new Dictionary<(int, long), EtlProcess>();
        foreach (var p in first.Processes)
        {
            byIdentity.TryAdd((p.Id, p.StartTimestamp), p);
        }

        return (process, address) => byIdentity.TryGetValue((process.Id, process.StartTimestamp), out var known) ? first.FindMethod(known, address) : null;
    }
}
