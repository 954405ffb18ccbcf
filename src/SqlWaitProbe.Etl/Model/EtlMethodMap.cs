namespace SqlWaitProbe.Etl.Model;

/// <summary>
/// Address → JIT-compiled method for one process. Rundown events at the end of a trace name every method still
/// loaded (and the modules after the methods), so names are looked up once the whole trace is read; a later event
/// for the same start address replaces the earlier one.
/// </summary>
internal sealed class EtlMethodMap
{
    private readonly List<(ulong Start, uint Size, string Name, ulong ModuleId)> _added = [];
    private readonly Dictionary<ulong, string> _modules = [];
    private (ulong Start, uint Size, string Name, ulong ModuleId)[]? _sorted;
    private uint _largest;

    /// <summary>Method events recorded.</summary>
    public int Count => _added.Count;

    /// <summary>Records a method of module <paramref name="moduleId"/>.</summary>
    public void AddMethod(ulong moduleId, ulong start, uint size, string name)
    {
        _added.Add((start, size, name, moduleId));
        _largest = Math.Max(_largest, size);
        _sorted = null;
    }

    /// <summary>Records a managed module's file.</summary>
    public void AddModule(ulong moduleId, string ilPath)
    {
        _modules[moduleId] = ilPath[(ilPath.LastIndexOfAny(['\\', '/']) + 1)..];
    }

    /// <summary>The method whose code holds <paramref name="address"/>, or null.</summary>
    public EtlManagedMethod? Find(ulong address)
    {
        _sorted ??= Sort();
        int lo = 0, hi = _sorted.Length;
        while (lo < hi)
        {
            var mid = (lo + hi) >>> 1;
            if (_sorted[mid].Start <= address)
            {
                lo = mid + 1;
            }
            else
            {
                hi = mid;
            }
        }

        for (var i = lo - 1; i >= 0 && address - _sorted[i].Start < _largest; i--)
        {
            var (start, size, name, module) = _sorted[i];
            if (address - start < size)
            {
                return new EtlManagedMethod(name, _modules.GetValueOrDefault(module, string.Empty), start, size);
            }
        }

        return null;
    }

    private (ulong, uint, string, ulong)[] Sort()
    {
        // The last event for a start address wins; a stable sort keeps event order among equal starts.
        var last = new Dictionary<ulong, int>();
        for (var i = 0; i < _added.Count; i++)
        {
            last[_added[i].Start] = i;
        }

        return last.Values.Order().Select(i => _added[i]).OrderBy(m => m.Start).ToArray();
    }
}
