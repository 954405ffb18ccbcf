namespace SqlWaitProbe.Phases.Driver;

/// <summary>
/// A single-writer, append-only store of one session's executions in preallocated chunks: the hot path only
/// writes into an array slot; a new chunk is allocated once per <see cref="ChunkSize"/> executions.
/// </summary>
public sealed class ExecutionBuffer
{
    /// <summary>Executions per chunk.</summary>
    public const int ChunkSize = 16384;

    private readonly List<ExecutionRecord[]> _chunks = [new ExecutionRecord[ChunkSize]];
    private ExecutionRecord[] _current;
    private int _index;
    private long _count;

    /// <summary>Creates an empty buffer with its first chunk allocated.</summary>
    public ExecutionBuffer()
    {
        _current = _chunks[0];
    }

    /// <summary>Executions recorded so far; safe to read from another thread.</summary>
    public long Count => Volatile.Read(ref _count);

    /// <summary>Appends one execution (writer thread only).</summary>
    public void Add(in ExecutionRecord record)
    {
        if (_index == ChunkSize)
        {
            _current = new ExecutionRecord[ChunkSize];
            _chunks.Add(_current);
            _index = 0;
        }

        _current[_index++] = record;
        Volatile.Write(ref _count, _count + 1);
    }

    /// <summary>
    /// How many executions ended at or before <paramref name="timestamp"/> (a Stopwatch timestamp in the past). Safe
    /// while the writer runs: executions are recorded in the order they end, so they are a prefix of what was written.
    /// </summary>
    public long CountEndedBy(long timestamp)
    {
        var count = Count;
        long ended = 0;
        for (var c = 0; ended < count; c++)
        {
            var chunk = _chunks[c];
            var n = (int)Math.Min(count - ended, ChunkSize);
            for (var i = 0; i < n; i++)
            {
                if (chunk[i].End > timestamp)
                {
                    return ended;
                }

                ended++;
            }
        }

        return ended;
    }

    /// <summary>The execution recorded last, or null before the first; safe while the writer runs.</summary>
    public ExecutionRecord? Latest()
    {
        var count = Count;
        return count == 0 ? null : _chunks[(int)((count - 1) / ChunkSize)][(count - 1) % ChunkSize];
    }

    /// <summary>Every execution in order; call only after the writer has stopped.</summary>
    public IEnumerable<ExecutionRecord> All()
    {
        var remaining = Count;
        foreach (var chunk in _chunks)
        {
            var n = (int)Math.Min(remaining, ChunkSize);
            for (var i = 0; i < n; i++)
            {
                yield return chunk[i];
            }

            remaining -= n;
        }
    }
}
