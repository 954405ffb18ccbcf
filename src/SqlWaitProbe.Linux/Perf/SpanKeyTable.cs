using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace SqlWaitProbe.Linux.Perf;

/// <summary>
/// A map from text to a small integer that is looked up with a span, without allocating: the hot lookup of every
/// stack line. Open addressing over a power-of-two table with a cheap non-cryptographic hash (keys come from one file).
/// </summary>
internal sealed class SpanKeyTable
{
    private int[] _slots = new int[4096];
    private readonly List<(string Key, int Hash, int Value)> _entries = new();

    /// <summary>Finds the value stored for <paramref name="key"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public bool TryGetValue(ReadOnlySpan<char> key, out int value)
    {
        var hash = Hash(key);
        var mask = _slots.Length - 1;
        var entries = CollectionsMarshal.AsSpan(_entries);
        for (var slot = hash & mask; ; slot = (slot + 1) & mask)
        {
            var index = _slots[slot] - 1;
            if (index < 0)
            {
                value = 0;
                return false;
            }

            ref readonly var entry = ref entries[index];
            if (entry.Hash == hash && key.SequenceEqual(entry.Key))
            {
                value = entry.Value;
                return true;
            }
        }
    }

    /// <summary>Stores <paramref name="value"/> for a key not yet present.</summary>
    public void Add(ReadOnlySpan<char> key, int value)
    {
        var hash = Hash(key);
        _entries.Add((key.ToString(), hash, value));
        if (_entries.Count * 2 > _slots.Length)
        {
            _slots = new int[_slots.Length * 2];
            for (var i = 0; i < _entries.Count; i++)
            {
                Place(_entries[i].Hash, i + 1);
            }
        }
        else
        {
            Place(hash, _entries.Count);
        }
    }

    private void Place(int hash, int entryPlusOne)
    {
        var mask = _slots.Length - 1;
        var slot = hash & mask;
        while (_slots[slot] != 0)
        {
            slot = (slot + 1) & mask;
        }

        _slots[slot] = entryPlusOne;
    }

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static int Hash(ReadOnlySpan<char> key)
    {
        var words = MemoryMarshal.Cast<char, ulong>(key);
        var h = 0x9E3779B97F4A7C15ul ^ (ulong)key.Length;
        foreach (var w in words)
        {
            h = BitOperations.RotateLeft((h ^ w) * 0xFF51AFD7ED558CCDul, 29);
        }

        for (var i = words.Length * 4; i < key.Length; i++)
        {
            h = BitOperations.RotateLeft((h ^ key[i]) * 0xC4CEB9FE1A85EC53ul, 29);
        }

        h ^= h >> 32;
        return (int)(h & 0x7fffffff);
    }
}
