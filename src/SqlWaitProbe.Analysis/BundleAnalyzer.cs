using SqlWaitProbe.Core.Stacks;
using System.Globalization;
using SqlWaitProbe.Analysis.Correlation;
using SqlWaitProbe.Analysis.Findings;
using SqlWaitProbe.Analysis.Input;
using SqlWaitProbe.Analysis.Ledger;
using SqlWaitProbe.Analysis.Stacks;
using SqlWaitProbe.Analysis.Tags;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Secrets;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Analysis;

/// <summary>Runs the whole analysis of a bundle: readers, ledgers, growth, correlation, findings.</summary>
public static class BundleAnalyzer
{
    /// <summary>
    /// Analyses <paramref name="bundle"/> with what <paramref name="modules"/> contribute (the engine's stack tags).
    /// <paramref name="extraTags"/> adds imported stack tags; <paramref name="focus"/> adds a callers/callees view.
    /// </summary>
    public static AnalysisResult Analyze(CaptureBundle bundle, AnalysisModules modules, StackTagSet? extraTags = null, string? focus = null, IProgress<string>? progress = null, CancellationToken cancellationToken = default)
    {
        var manifest = WithoutCredentials(bundle.Manifest);
        progress?.Report("reading phases");
        var phases = BundleReader.ReadPhases(bundle, modules.Collectors, cancellationToken);
        ArgumentNullException.ThrowIfNull(modules);
        var tags = modules.TagsFor(manifest.Engine);
        var classOf = modules.WaitClassesFor(manifest.Engine);
        if (extraTags is not null)
        {
            // Imported tags come first so they win over built-in ones on the same frame at equal priority.
            tags = extraTags.Merge(tags);
        }

        progress?.Report("building the time ledger");
        var server = modules.ProcessFor(manifest.Engine, manifest.ServerProcess);
        var ledgers = phases.Select(p => TimeLedger.Compute(p, server, tags, classOf, manifest.LogicalCpus)).ToArray();
        var partial = new AnalysisResult { Manifest = manifest, Phases = phases, Ledgers = ledgers, Advice = modules.AdviceFor(manifest.Engine), InstanceSettings = modules.InstanceSettingsFor(manifest.Engine) };
        var growth = partial.Baseline is { } b && partial.Load is { } l && !ReferenceEquals(b, l) ? Growth.Compute(b, l) : [];
        var byThreads = ledgers.OrderBy(x => x.Threads).ToArray();
        var fastest = Growth.FastestGrowing(byThreads);
        IReadOnlyList<CallPath> paths = [];
        var process = manifest.ServerProcess.Length > 0 ? manifest.ServerProcess : null;
        string? pathsModule = null;
        var pathsWhy = "";
        var main = partial.Load ?? (ledgers.Length == 1 ? ledgers[0] : null);
        if (main is not null && partial.PhaseOf(main).Stacks is { } mainStacks)
        {
            // Without material growth there is no fastest-growing module to follow; the heaviest one still shows where
            // the time goes.
            var (module, kernel) = fastest is not null
                ? (fastest.Module, fastest.Kernel)
                : main.Modules.OrderByDescending(m => m.ExclusiveShare).Select(m => (m.Module, m.Kernel)).FirstOrDefault();
            if (module is not null)
            {
                paths = CallPaths.IntoModule(mainStacks, process, module, kernel);
                pathsModule = module;
                pathsWhy = fastest is not null ? "fastest-growing module"
                    : byThreads.Length > 1 ? $"heaviest module in {main.Phase}; no module's per-execution CPU grew materially"
                    : $"heaviest module in {main.Phase}";
            }
        }

        var focusViews = new List<(string, CallerCalleeResult)>();
        if (!string.IsNullOrWhiteSpace(focus))
        {
            foreach (var p in phases.Where(p => p.Stacks is not null))
            {
                // Like every CPU figure of the report, the focus is on the workload's processes only.
                focusViews.Add((p.Name, CallerCalleeView.Compute(process is null ? p.Stacks! : p.Stacks!.OnlyProcess(process), focus)));
            }
        }

        progress?.Report("correlating per-second series");
        var result = partial with
        {
            Growth = growth,
            GrowthByPhase = partial.Baseline is { } baseLedger
                ? ledgers.Where(x => !ReferenceEquals(x, baseLedger)).Select(x => (x.Phase, Growth.Compute(baseLedger, x))).ToArray()
                : [],
            Scalability = Growth.Scalability(phases, ledgers, manifest.LogicalCpus),
            FastestGrowing = fastest,
            CallPathsIntoFastest = paths,
            CallPathsModule = pathsModule,
            CallPathsWhy = pathsWhy,
            Correlations = phases.SelectMany(SeriesCorrelation.Compute).ToArray(),
            Statements = phases.Select(Statements.StatementLedger.Compute).OfType<Statements.PhaseStatements>().ToArray(),
            Focus = focusViews,
            DataQuality = DataQualityNotes(bundle, phases),
            EngineAttachMethod = modules.AttachMethodFor(manifest.Engine),
        };
        result = result with { DataQuality = [.. result.DataQuality, .. Statements.StatementNotes.Describe(result.Statements)] };
        var withFindings = result with { Findings = CaptureRules.Evaluate(result) };
        var withVerdicts = withFindings with { Verdicts = PhaseVerdicts.Of(withFindings) };
        return withVerdicts with { ModuleSections = [.. modules.Collectors.SelectMany(m => m.Sections(withVerdicts))] };
    }

    // A bundle from an older probe (or edited by hand) may hold a password in its options or settings: what the
    // reports and compare show of the manifest passes the same rules the capture applies.
    private static BundleManifest WithoutCredentials(BundleManifest manifest) => manifest with
    {
        Options = manifest.Options.ToDictionary(o => o.Key, o => CredentialRules.Redact(o.Value), StringComparer.Ordinal),
        Configuration = CredentialRules.RedactSettings(manifest.Configuration),
        Reason = manifest.Reason is null ? null : CredentialRules.Redact(manifest.Reason),
    };

    private static List<string> DataQualityNotes(CaptureBundle bundle, IReadOnlyList<PhaseData> phases)
    {
        var manifest = bundle.Manifest;
        var notes = new List<string>();
        if (bundle.Damaged.Count > 0)
        {
            // Set aside under --no-verify: read as absent, so no figure or finding below rests on them.
            notes.Add($"damaged files left out of the analysis ({bundle.Damaged.Count}; nothing here is built on them): "
                + string.Join("; ", bundle.Damaged.OrderBy(d => d.Key, StringComparer.Ordinal).Select(d => $"{d.Key} ({d.Value})")));
        }

        var notMeasured = ObserverEffectNotMeasured(bundle);
        if (manifest.IsAttach)
        {
            notes.Add(phases.Any(p => p.SessionStates is not null)
                ? "attach mode: no workload ran, so there is no throughput or latency; session time is the time the watched sessions spent in statements or transactions, idle time is beside the ledger"
                : "attach mode: no workload ran, so there is no throughput or latency; session time is the watched sessions' connected time");
        }

        if (manifest.Status != BundleStatus.Complete)
        {
            notes.Add($"capture status is {manifest.Status}{(manifest.Reason is null ? "" : " (" + manifest.Reason + ")")}");
        }

        foreach (var missing in manifest.Phases.Where(p => phases.All(d => d.Name != p.Name)))
        {
            notes.Add($"phase {missing.Name}: no executions.csv, so it is not analysed");
        }

        foreach (var p in phases)
        {
            var absent = new List<string>();
            if (p.Sessions is null) absent.Add("sessions.csv (CPU)");
            if (p.Waits is null) absent.Add("waits.csv");
            if (p.Stacks is null) absent.Add("cpu/stacks.folded");
            if (p.Series is null) absent.Add("series.csv");
            if (p.Overhead is null && !p.IsAttachWindow)
            {
                absent.Add("overhead.json (the observer effect " + (notMeasured.TryGetValue(p.Name, out var why) ? why : "was not measured; capture.log says why") + ")");
            }
            if (absent.Count > 0)
            {
                notes.Add($"phase {p.Name}: not captured: {string.Join(", ", absent)}");
            }

            if (p.Overhead is { } measured && Findings.Rules.ObserverEffectRule.WhyNotShown(measured) is { } notShown)
            {
                notes.Add($"phase {p.Name}: observer effect not shown: {notShown}");
            }

            if (p.Executions.RunningAtEnd > 0)
            {
                notes.Add($"phase {p.Name}: {p.Executions.RunningAtEnd} of {p.Executions.Count} executions were still running at the phase end: measured up to it, they count as the share that ran inside ({Figures.F(p.Executions.Counted)} executions in all); "
                    + (p.Executions.Cancelled > 0
                        ? $"{p.Executions.Cancelled} of them were still running after --finish-within and were cancelled: the time each ran until then stands for its whole time, so executions per second are an upper bound and ms per execution a lower one; latencies are of the {p.Executions.Counts!.Timed} that finished"
                        : "their latencies are whole (the driver timed them to their end)"));
            }

            if (p.Sampling?.Coverage is { } c)
            {
                notes.Add($"phase {p.Name}: sampling coverage {Figures.Pct(c)} ({p.Sampling.Samples} samples, {p.Sampling.LostSamples} lost, {p.Sampling.SampleHz} Hz, {p.Sampling.Source})");
            }

            if (p.Sampling?.CallGraph is { } callGraph)
            {
                notes.Add($"phase {p.Name}: call graph: {callGraph}" + (p.Sampling.CallGraphReason is { } why ? $" ({why})" : ""));
            }

            if (p.Stacks is { } stacks)
            {
                var server = manifest.ServerProcess;
                var own = server.Length == 0 ? stacks : stacks.OnlyProcess(server);
                if (server.Length > 0)
                {
                    notes.Add(WorkloadChoice(p, stacks, server));
                }

                notes.AddRange(StackQuality.Describe(p.Name, ReferenceEquals(own, stacks) ? "" : server, StackQuality.Measure(own), p.Sampling?.LostSamples ?? 0, p.Sampling?.Source ?? "perf", p.Sampling?.CallGraph, phaseSamples: p.Sampling?.Samples ?? 0, symbols: p.Sampling?.Symbols));
            }
        }

        // Extended events of the debug channel (page_allocated, page_freed) fire on hot paths: the report states
        // their measured cost, since a ticket's figures are read with it in mind.
        var xe = manifest.Collectors.Select(c => c.Name).Where(n => n.StartsWith("xe-", StringComparison.Ordinal)).Distinct(StringComparer.Ordinal).ToArray();
        if (xe.Length > 0)
        {
            foreach (var p in phases)
            {
                notes.Add(p.Overhead is { } o
                    ? $"phase {p.Name}: cost of the collectors including the XE sessions ({string.Join(", ", xe)}, debug-channel events): {Figures.Pct(o.SlowdownFraction)} slowdown, {o.InstrumentedPerSecond.ToString("0.##", CultureInfo.InvariantCulture)} executions/s instrumented vs {o.UninstrumentedPerSecond.ToString("0.##", CultureInfo.InvariantCulture)} without, {o.Describe()} [overhead.json]"
                    : $"phase {p.Name}: the cost of the XE sessions ({string.Join(", ", xe)}, debug-channel events) was not measured (no overhead.json); compare with a capture without --xe");
            }
        }

        // A collector that succeeded may still say how (the XE page events' read path): that is Data quality too.
        foreach (var c in manifest.Collectors.Where(c => c.Status != CollectorStatus.Ok || c.Error is not null))
        {
            notes.Add($"collector {c.Name}: {c.Status}{(c.Error is null ? "" : " — " + c.Error)}");
        }

        return notes;
    }

    /// <summary>
    /// Why each phase's observer effect was not measured, as capture.log says it (overhead.json holds measured figures
    /// only); read from the first lines of the log, which is the capture's own but still read as untrusted text.
    /// </summary>
    private static Dictionary<string, string> ObserverEffectNotMeasured(CaptureBundle bundle)
    {
        const string marker = ": observer effect not measured (";
        var reasons = new Dictionary<string, string>(StringComparer.Ordinal);
        using var reader = bundle.Has(BundlePaths.Log) ? bundle.OpenText(BundlePaths.Log) : null;
        for (var i = 0; reader is not null && i < 100_000 && reader.ReadLine() is { } line; i++)
        {
            var at = line.IndexOf(marker, StringComparison.Ordinal);
            var phase = at < 0 ? -1 : line.LastIndexOf(" phase ", at, StringComparison.Ordinal);
            if (phase >= 0 && line.EndsWith(')'))
            {
                var reason = line[(at + marker.Length)..^1];
                reasons[line[(phase + 7)..at]] = (reason.StartsWith("not measured: ", StringComparison.Ordinal) ? "was not measured: " + reason["not measured: ".Length..] : "was not measured: " + reason);
            }
        }

        return reasons;
    }

    /// <summary>How the phase's workload stacks were told apart from other processes of the server's name.</summary>
    private static string WorkloadChoice(PhaseData phase, Core.Stacks.StackProfile stacks, string server)
    {
        if (phase.Processes is not { } processes)
        {
            return $"phase {phase.Name}: the workload's CPU stacks were chosen by process name: every {server} process on the machine counts (this bundle records no cpu/processes.csv), so another {server} server running at the same time would be counted as the workload";
        }

        var other = Core.Stacks.WorkloadProcesses.OtherName(server);
        double own = 0, others = 0;
        foreach (var (process, _, weight) in stacks.Entries)
        {
            if (string.Equals(process, server, StringComparison.Ordinal)) own += weight;
            else if (string.Equals(process, other, StringComparison.Ordinal)) others += weight;
        }

        var distinct = processes.Select(x => x.Pid).Distinct().Count();
        var text = $"phase {phase.Name}: the workload's CPU stacks are those of the {distinct.ToString(CultureInfo.InvariantCulture)} process(es) listed in cpu/processes.csv (pid and start time)";
        return others == 0
            ? text + $"; no other {server} process was sampled"
            : text + $"; {Figures.Pct(others / (own + others))} of the {server}-named samples came from other {server} processes on the machine, shown only as {other} in the all-process flame graph";
    }
}
