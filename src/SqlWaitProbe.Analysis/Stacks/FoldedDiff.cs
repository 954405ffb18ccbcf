namespace SqlWaitProbe.Analysis.Stacks;

/// <summary>
/// Pairs two folded profiles stack by stack (the difffolded form: <c>stack before after</c>), optionally scaling the
/// "before" counts so both sides are comparable.
/// </summary>
public static class FoldedDiff
{
    /// <summary>
    /// Every stack of either side with its two weights. <paramref name="beforeScale"/> multiplies the before weights
    /// (rounded down, as difffolded does); 1 keeps raw counts.
    /// </summary>
    public static IReadOnlyList<(string Stack, long Before, long After)> Pair(
        IReadOnlyDictionary<string, long> before, IReadOnlyDictionary<string, long> after, double beforeScale = 1)
    {
        ArgumentNullException.ThrowIfNull(before);
        ArgumentNullException.ThrowIfNull(after);
        var rows = new List<(string, long, long)>(before.Count + after.Count);
        foreach (var (stack, weight) in before)
        {
            rows.Add((stack, Scale(weight, beforeScale), after.GetValueOrDefault(stack)));
        }

        foreach (var (stack, weight) in after)
        {
            if (!before.ContainsKey(stack))
            {
                rows.Add((stack, 0, weight));
            }
        }

        return rows.OrderBy(r => r.Item1, StringComparer.Ordinal).ToArray();
    }

    /// <summary>The scale that makes the before total equal the after total (difffolded's normalisation).</summary>
    public static double NormalizeTotals(IReadOnlyDictionary<string, long> before, IReadOnlyDictionary<string, long> after)
    {
        var b = before.Values.Sum();
        return b == 0 ? 1 : (double)after.Values.Sum() / b;
    }

    private static long Scale(long weight, double scale)
    {
        if (scale == 1)
        {
            return weight;
        }

        // 2^63 exactly: a scaled count at or past it has no 64-bit value (a cast would wrap it into nonsense).
        var scaled = Math.Floor((weight * scale) + 1e-9);
        return scaled < 9223372036854775808.0
            ? (long)scaled
            : throw new Core.Errors.BadInputException(
                $"scaling the before count {weight.ToString(System.Globalization.CultureInfo.InvariantCulture)} by {scale.ToString("R", System.Globalization.CultureInfo.InvariantCulture)} passes {long.MaxValue.ToString(System.Globalization.CultureInfo.InvariantCulture)}, the largest count the probe can hold");
    }
}
