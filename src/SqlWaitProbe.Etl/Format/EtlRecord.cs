namespace SqlWaitProbe.Etl.Format;

/// <summary>
/// One event record of a buffer, its header read, its payload still raw. Classic kernel events (system-style
/// headers, or full headers carrying a kernel class GUID) are named by <see cref="Group"/> and <see cref="Type"/>;
/// other providers by <see cref="ProviderId"/> and, for manifest events, <see cref="EventId"/>.
/// </summary>
internal readonly ref struct EtlRecord
{
    /// <summary>The header kind.</summary>
    public EtlHeaderKind Kind { get; init; }

    /// <summary>Bytes of a pointer in the payload: 4 or 8, from the header kind.</summary>
    public int PointerSize { get; init; }

    /// <summary>The raw timestamp in the trace's clock.</summary>
    public long Timestamp { get; init; }

    /// <summary>Thread id from the header, or -1 when the header has none (perfinfo).</summary>
    public int ThreadId { get; init; }

    /// <summary>Process id from the header, or -1 when the header has none (perfinfo).</summary>
    public int ProcessId { get; init; }

    /// <summary>The processor whose buffer held the record.</summary>
    public int Processor { get; init; }

    /// <summary>Kernel event group (the hook id's high byte, EVENT_TRACE_GROUP_*), or -1 for other providers.</summary>
    public int Group { get; init; }

    /// <summary>Event type (opcode) within the group or provider.</summary>
    public int Type { get; init; }

    /// <summary>Event version.</summary>
    public int Version { get; init; }

    /// <summary>Provider (classic class) GUID for full and EVENT_HEADER records; empty for system-style headers.</summary>
    public Guid ProviderId { get; init; }

    /// <summary>Event id of a manifest (EVENT_HEADER) record; 0 otherwise.</summary>
    public int EventId { get; init; }

    /// <summary>The event's own data.</summary>
    public ReadOnlySpan<byte> Payload { get; init; }

    /// <summary>File offset of the record's buffer.</summary>
    public long BufferAt { get; init; }

    /// <summary>Whether that buffer is compressed.</summary>
    public bool Compressed { get; init; }

    /// <summary>Offset of the record in the buffer's content.</summary>
    public int ContentOffset { get; init; }

    /// <summary>Where the record is, for errors.</summary>
    public string Location => EtlLocation.Record(BufferAt, Compressed, ContentOffset);

    /// <summary>Where the record is, kept for an error found later.</summary>
    public EtlRecordPosition Position => new(BufferAt, Compressed, ContentOffset);

    /// <summary>True for the classic kernel event <paramref name="group"/>/<paramref name="type"/>.</summary>
    public bool Is(int group, int type) => Group == group && Type == type;
}
