using SqlWaitProbe.Analysis.Stacks;

namespace SqlWaitProbe.Analysis.Ledger;

/// <summary>A call path from the root into a module, with the weight of the samples that took it.</summary>
/// <param name="Frames">Root-first frames as <c>module!symbol</c> (<c>module!?</c> where unnamed), ending at the first frame in the module.</param>
/// <param name="Weight">Sample weight.</param>
/// <param name="Share">Share of the process's samples.</param>
public sealed record CallPath(IReadOnlyList<string> Frames, long Weight, double Share)
{
    /// <summary>
    /// The deepest named frame of the path (<c>pgcrypto.so!px_find_digest</c>): the path's own last frame when it has a
    /// name, else the nearest named caller of the unnamed entry into the module. Null when no frame has a name.
    /// </summary>
    public string? NamedAs { get; init; }

    /// <summary>
    /// The named functions the path's entry into the module calls first (unnamed frames passed over), heaviest three,
    /// each with its share of the process's samples, its callees included: what an unnamed entry frame
    /// (<c>libcrypto.so.3!?</c>) leads to.
    /// </summary>
    public IReadOnlyList<NamedShare> Inside { get; init; } = [];

    /// <summary>True when the path ends at a frame without a name, so <see cref="NamedAs"/> and <see cref="Inside"/> name it.</summary>
    public bool EndsUnnamed => Frames.Count > 0 && Frames[^1].EndsWith("!?", StringComparison.Ordinal);

    /// <summary>
    /// The path by its names, for prose: <c>pgcrypto.so!px_find_digest → libcrypto.so.3!EVP_MD_fetch (34%),
    /// libcrypto.so.3!OBJ_NAME_get (11%)</c>; the deepest named frame, then what the entry into the module calls first.
    /// </summary>
    public string Naming
    {
        get
        {
            var head = NamedAs ?? Frames.LastOrDefault() ?? "";
            return Inside.Count == 0 ? head
                : head + " → " + string.Join(", ", Inside.Select(i => $"{i.Function} ({Core.Text.Figures.Pct(i.Share)})"));
        }
    }

    /// <summary>The frames for reading, root first: runs of one unnamed frame (<c>postgres!? → postgres!?</c>) shown once.</summary>
    public IReadOnlyList<string> Compact()
    {
        var compact = new List<string>(Frames.Count);
        foreach (var f in Frames)
        {
            if (compact.Count == 0 || f != compact[^1] || !f.EndsWith("!?", StringComparison.Ordinal))
            {
                compact.Add(f);
            }
        }

        return compact;
    }
}
