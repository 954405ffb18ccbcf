using SqlWaitProbe.Core.Bundle;

namespace SqlWaitProbe.Analysis.Comparison;

/// <summary>Plain warnings for captures that do not match: another engine, workload, query or machine, or an incomplete capture.</summary>
internal static class ComparisonWarnings
{
    public static IEnumerable<string> Mismatches(IReadOnlyList<ComparedCapture> captures)
    {
        var first = captures[0];
        foreach (var c in captures.Skip(1))
        {
            var (a, b) = (first.Analysis.Manifest, c.Analysis.Manifest);
            if (a.Engine != b.Engine)
            {
                yield return $"{c.Label} ran on {b.Engine}, {first.Label} on {a.Engine}: only engine-neutral figures (ledger, throughput, modules, tags) are comparable";
            }

            if (a.Workload != b.Workload)
            {
                yield return $"{c.Label} ran workload {b.Workload}, {first.Label} ran {a.Workload}: per-execution figures compare different work";
            }

            if (a.LogicalCpus != b.LogicalCpus)
            {
                yield return $"{c.Label} was captured with {b.LogicalCpus} logical CPUs, {first.Label} with {a.LogicalCpus}";
            }
        }

        foreach (var c in captures.Where(c => c.Analysis.Manifest.Status != BundleStatus.Complete))
        {
            var m = c.Analysis.Manifest;
            yield return $"capture {c.Label} is {m.Status}{(m.Reason is null ? "" : " (" + m.Reason + ")")}: its figures cover what was captured";
        }
    }
}
