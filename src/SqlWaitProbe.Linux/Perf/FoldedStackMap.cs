using System.Runtime.CompilerServices;

namespace SqlWaitProbe.Linux.Perf;

/// <summary>
/// Weight per (process, frame-id sequence), found with one hash lookup per sample rather than one per frame.
/// Open addressing over a power-of-two table; sequences are copied once, when first seen.
/// </summary>
internal sealed class FoldedStackMap
{
    private int[] _slots = new int[1024];
    private readonly List<(string Process, int[] Frames, int Hash)> _keys = new();
    private readonly List<long> _weights = new();

    /// <summary>Number of distinct stacks.</summary>
    public int Count => _keys.Count;

    /// <summary>Adds <paramref name="weight"/> to the stack.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public void Add(string process, ReadOnlySpan<int> frames, long weight)
    {
        var hash = Hash(process, frames);
        var mask = _slots.Length - 1;
        var slot = hash & mask;
        while (true)
        {
            var index = _slots[slot] - 1;
            if (index < 0)
            {
                break;
            }

            var key = _keys[index];
            if (key.Hash == hash && ReferenceEquals(key.Process, process) && frames.SequenceEqual(key.Frames))
            {
                _weights[index] = checked(_weights[index] + weight);
                return;
            }

            slot = (slot + 1) & mask;
        }

        _keys.Add((process, frames.ToArray(), hash));
        _weights.Add(weight);
        _slots[slot] = _keys.Count;
        if (_keys.Count * 2 > _slots.Length)
        {
            Grow();
        }
    }

    /// <summary>Every stack with its weight.</summary>
    public IEnumerable<(string Process, int[] Frames, long Weight)> Entries()
    {
        for (var i = 0; i < _keys.Count; i++)
        {
            yield return (_keys[i].Process, _keys[i].Frames, _weights[i]);
        }
    }

    private void Grow()
    {
        _slots = new int[_slots.Length * 2];
        var mask = _slots.Length - 1;
        for (var i = 0; i < _keys.Count; i++)
        {
            var slot = _keys[i].Hash & mask;
            while (_slots[slot] != 0)
            {
                slot = (slot + 1) & mask;
            }

            _slots[slot] = i + 1;
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static int Hash(string process, ReadOnlySpan<int> frames)
    {
        // Process names are interned by the parser, so their identity hash is stable and cheap.
        var h = (uint)RuntimeHelpers.GetHashCode(process) * 0x9E3779B1u;
        foreach (var f in frames)
        {
            h = (h ^ (uint)f) * 0x85EBCA6Bu;
            h ^= h >> 13;
        }

        return (int)(h & 0x7fffffff);
    }
}
