namespace SqlWaitProbe.Etl.Model;

/// <summary>
/// Address → image for one address space over the whole trace: images are kept after they unload, with their load
/// and unload times, so an address is found in the image mapped there at the time asked (a stack resolved after a
/// DLL was unloaded and another loaded at its address still names the first one).
/// </summary>
internal sealed class EtlImageMap
{
    private readonly List<EtlImage> _byBase = [];
    private ulong _largest;

    /// <summary>Images ever added.</summary>
    public int Count => _byBase.Count;

    /// <summary>Every image, by base address.</summary>
    public IReadOnlyList<EtlImage> All => _byBase;

    /// <summary>Adds a loaded image.</summary>
    public void Add(EtlImage image)
    {
        var at = UpperBound(image.Base);
        _byBase.Insert(at, image);
        _largest = Math.Max(_largest, image.Size);
    }

    /// <summary>The image loaded at <paramref name="imageBase"/> at <paramref name="timestamp"/>, or null.</summary>
    public EtlImage? LoadedAt(ulong imageBase, long timestamp)
    {
        for (var i = UpperBound(imageBase) - 1; i >= 0 && _byBase[i].Base == imageBase; i--)
        {
            if (_byBase[i].LoadTimestamp <= timestamp && timestamp < _byBase[i].UnloadTimestamp)
            {
                return _byBase[i];
            }
        }

        return null;
    }

    /// <summary>The image holding <paramref name="address"/> at <paramref name="timestamp"/>, or null.</summary>
    public EtlImage? Find(ulong address, long timestamp)
    {
        // Images are sorted by base; only those starting within the largest image's size below the address can hold it.
        for (var i = UpperBound(address) - 1; i >= 0 && address - _byBase[i].Base < _largest; i--)
        {
            var image = _byBase[i];
            if (image.Contains(address) && image.LoadTimestamp <= timestamp && timestamp < image.UnloadTimestamp)
            {
                return image;
            }
        }

        return null;
    }

    // The first index whose base is above the value: inserting there keeps equal bases in load order.
    private int UpperBound(ulong value)
    {
        int lo = 0, hi = _byBase.Count;
        while (lo < hi)
        {
            var mid = (lo + hi) >>> 1;
            if (_byBase[mid].Base <= value)
            {
                lo = mid + 1;
            }
            else
            {
                hi = mid;
            }
        }

        return lo;
    }
}
