using SqlWaitProbe.Analysis.Ledger;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Analysis.Comparison;

/// <summary>
/// Sets analysed captures side by side: the phases they share, per execution, with every Δ taken from the first
/// capture. Works on analysis results only (the same as <c>probe analyze</c> computes), never on raw files.
/// </summary>
public static class CaptureComparer
{
    /// <summary>Compares <paramref name="captures"/> (two or more); <paramref name="phase"/> limits it to one phase.</summary>
    public static ComparisonResult Compare(IReadOnlyList<ComparedCapture> captures, string? phase = null)
    {
        if (captures.Count < 2)
        {
            throw new BadInputException("compare needs at least two capture bundles");
        }

        var warnings = new List<string>(ComparisonWarnings.Mismatches(captures));
        var phases = new List<PhaseComparison>();
        foreach (var (name, sides) in MatchPhases(captures, phase, warnings))
        {
            phases.Add(ComparePhase(name, sides));
        }

        var result = new ComparisonResult
        {
            Captures = captures,
            Phases = phases,
            ConfigurationDifferences = CaptureConfiguration.Differences(captures.Select(c => c.Analysis.Manifest).ToArray(), k => captures.Any(c => c.Analysis.InstanceSettings.Contains(k))),
            Scalability = Scalability(phases, captures),
            Warnings = warnings,
            Statements = [.. phases.SelectMany(p => StatementComparison.Match(p, captures))],
        };
        return result with { Findings = ComparisonRules.Evaluate(result) };
    }

    private static IEnumerable<(string Name, PhaseSide[] Sides)> MatchPhases(IReadOnlyList<ComparedCapture> captures, string? phase, List<string> warnings)
    {
        static PhaseSide Side(ComparedCapture c, PhaseLedger l) => new(c.Label, l, c.Analysis.PhaseOf(l));

        if (phase is not null)
        {
            foreach (var c in captures.Where(c => c.Analysis.Ledgers.All(l => l.Phase != phase)))
            {
                throw new BadInputException($"--phase {phase}: capture {c.Label} has no such phase (it has {PhaseList(c)})");
            }

            yield return (phase, captures.Select(c => Side(c, c.Analysis.Ledgers.First(l => l.Phase == phase))).ToArray());
            yield break;
        }

        var shared = captures[0].Analysis.Ledgers.Select(l => l.Phase)
            .Where(name => captures.All(c => c.Analysis.Ledgers.Any(l => l.Phase == name))).ToArray();
        if (shared.Length == 0)
        {
            // Nothing shared by name (a 1-session capture against a sweep, say): each capture's main phase still
            // answers "what changed per execution", so it is compared, and the warning says which phases those were.
            var mains = captures.Select(c => (c, l: c.Analysis.Load ?? c.Analysis.Ledgers.LastOrDefault())).ToArray();
            if (mains.Any(m => m.l is null))
            {
                var empty = mains.First(m => m.l is null).c;
                throw new BadInputException($"capture {empty.Label} has no phase with executions.csv to compare; leave it out, or compare a capture whose phases ran (probe analyze shows what it holds)");
            }

            warnings.Add($"the captures share no phase by name; comparing each one's main phase: {string.Join(", ", mains.Select(m => $"{m.c.Label} {m.l!.Phase}"))}");
            yield return (string.Join(" vs ", mains.Select(m => m.l!.Phase).Distinct()), mains.Select(m => Side(m.c, m.l!)).ToArray());
            yield break;
        }

        foreach (var c in captures.Where(c => c.Analysis.Ledgers.Any(l => !shared.Contains(l.Phase))))
        {
            warnings.Add($"capture {c.Label} has phases the others lack ({string.Join(", ", c.Analysis.Ledgers.Select(l => l.Phase).Where(p => !shared.Contains(p)))}); they are left out");
        }

        foreach (var name in shared)
        {
            yield return (name, captures.Select(c => Side(c, c.Analysis.Ledgers.First(l => l.Phase == name))).ToArray());
        }
    }

    private static string PhaseList(ComparedCapture c) =>
        c.Analysis.Ledgers.Count == 0 ? "no analysable phase" : string.Join(", ", c.Analysis.Ledgers.Select(l => l.Phase));

    private static PhaseComparison ComparePhase(string name, PhaseSide[] sides) => new()
    {
        Name = name,
        Sides = sides,
        Ledger = PhaseRows.Ledger(sides),
        Throughput = PhaseRows.Throughput(sides),
        Waits = PhaseRows.Waits(sides),
        Latches = PhaseRows.Latches(sides),
        Spinlocks = PhaseRows.Spinlocks(sides),
        XePages = PhaseRows.XePages(sides),
        OsCpu = PhaseRows.OsCpu(sides),
        Modules = PhaseRows.Modules(sides),
        Tags = PhaseRows.Tags(sides),
    };

    private static IReadOnlyList<ScalabilityPoint> Scalability(IReadOnlyList<PhaseComparison> phases, IReadOnlyList<ComparedCapture> captures)
    {
        // A scalability chart needs the same phase at different session counts: the first phase where they differ.
        var phase = phases.FirstOrDefault(p => p.Sides.Select(s => s.Ledger.Threads).Distinct().Count() > 1 && p.Sides.All(s => !s.Ledger.IsAttach));
        if (phase is null)
        {
            return [];
        }

        var fewest = phase.Sides.OrderBy(s => s.Ledger.Threads).First().Ledger;
        return phase.Sides
            .Select((s, i) => new ScalabilityPoint(s.Label, s.Ledger.Threads, s.Ledger.ExecutionsPerSecond, s.Ledger.MsPerExecution,
                IdealThroughput.PerSecond(s.Ledger.Threads, fewest.MsPerExecution, fewest.CpuMsPerExecution, captures[i].Analysis.Manifest.LogicalCpus)))
            .OrderBy(p => p.Threads).ToArray();
    }
}
