using SqlWaitProbe.Analysis.Tags;
using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Analysis.Ledger;

/// <summary>Callers and callees of the frames matching a <c>module!function</c> wildcard, by inclusive weight.</summary>
/// <param name="Pattern">The focus pattern.</param>
/// <param name="InclusiveShare">Share of the samples with a matching frame on the stack.</param>
/// <param name="Callers">Frames that called a matching frame, heaviest first, with their share.</param>
/// <param name="Callees">Frames a matching frame called (or <c>(self)</c>), heaviest first.</param>
public sealed record FocusView(string Pattern, double InclusiveShare, IReadOnlyList<(string Frame, double Share)> Callers, IReadOnlyList<(string Frame, double Share)> Callees)
{
    /// <summary>Computes the view over one process's samples (all when null). The outermost matching frame of each stack counts.</summary>
    public static FocusView Compute(StackProfile profile, string? process, string pattern, int top = 10)
    {
        var callers = new Dictionary<string, long>(StringComparer.Ordinal);
        var callees = new Dictionary<string, long>(StringComparer.Ordinal);
        long total = 0, matched = 0;
        foreach (var (proc, stack, weight) in profile.Entries)
        {
            if (process is not null && !string.Equals(proc, process, StringComparison.Ordinal))
            {
                continue;
            }

            total += weight;
            var frames = profile.Stacks.FramesRootFirst(stack);
            for (var i = 0; i < frames.Length; i++)
            {
                var frame = profile.Frames[frames[i]];
                if (!Wildcard.IsMatch(pattern, frame.QualifiedName) && !Wildcard.IsMatch(pattern, frame.Symbol))
                {
                    continue;
                }

                matched += weight;
                var caller = i > 0 ? profile.Frames[frames[i - 1]].QualifiedName : "(root)";
                var callee = i + 1 < frames.Length ? profile.Frames[frames[i + 1]].QualifiedName : "(self)";
                callers[caller] = callers.GetValueOrDefault(caller) + weight;
                callees[callee] = callees.GetValueOrDefault(callee) + weight;
                break;
            }
        }

        var denominator = Math.Max(1, total);
        return new FocusView(pattern, matched / (double)denominator, Top(callers, denominator, top), Top(callees, denominator, top));
    }

    private static (string, double)[] Top(Dictionary<string, long> weights, long total, int top) =>
        weights.OrderByDescending(kv => kv.Value).ThenBy(kv => kv.Key, StringComparer.Ordinal).Take(top).Select(kv => (kv.Key, kv.Value / (double)total)).ToArray();
}
