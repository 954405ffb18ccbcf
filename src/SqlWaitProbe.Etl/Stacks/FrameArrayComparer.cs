namespace SqlWaitProbe.Etl.Stacks;

/// <summary>Compares frame arrays by content, to intern them.</summary>
internal sealed class FrameArrayComparer : IEqualityComparer<ulong[]>
{
    /// <summary>The one instance.</summary>
    public static FrameArrayComparer Instance { get; } = new();

    /// <inheritdoc />
    public bool Equals(ulong[]? x, ulong[]? y) => ReferenceEquals(x, y) || (x is not null && y is not null && x.AsSpan().SequenceEqual(y));

    /// <inheritdoc />
    public int GetHashCode(ulong[] obj)
    {
        var hash = new HashCode();
        hash.AddBytes(System.Runtime.InteropServices.MemoryMarshal.AsBytes(obj.AsSpan()));
        return hash.ToHashCode();
    }
}
