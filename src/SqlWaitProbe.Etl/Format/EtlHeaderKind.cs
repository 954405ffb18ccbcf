namespace SqlWaitProbe.Etl.Format;

/// <summary>
/// The kinds of record header an .etl buffer holds, named by the header-type byte of each record's marker (the
/// third byte; the fourth carries the TRACE_HEADER_FLAG and TRACE_HEADER_EVENT_TRACE bits, 0xC0). The kernel
/// logs its own events with the short system, compact and perfinfo headers; providers log with the full
/// EVENT_TRACE_HEADER (classic) or EVENT_HEADER (manifest) layouts documented in evntrace.h and evntcons.h.
/// Each comes in a 32-bit and a 64-bit kind, which decides the pointer size of its payload.
/// </summary>
internal enum EtlHeaderKind : byte
{
    /// <summary>SYSTEM_TRACE_HEADER, 32 bytes, 32-bit pointers.</summary>
    System32 = 0x01,
    /// <summary>SYSTEM_TRACE_HEADER, 32 bytes, 64-bit pointers.</summary>
    System64 = 0x02,
    /// <summary>The system header without kernel and user times, 24 bytes, 32-bit pointers.</summary>
    Compact32 = 0x03,
    /// <summary>The system header without kernel and user times, 24 bytes, 64-bit pointers.</summary>
    Compact64 = 0x04,
    /// <summary>EVENT_TRACE_HEADER, 48 bytes, 32-bit pointers.</summary>
    Full32 = 0x0A,
    /// <summary>EVENT_INSTANCE_GUID_HEADER, 72 bytes, 32-bit pointers.</summary>
    Instance32 = 0x0B,
    /// <summary>A WPP message header: its size, then optional fields; skipped.</summary>
    Message = 0x0F,
    /// <summary>PERFINFO_TRACE_HEADER, 16 bytes (no thread or process id), 32-bit pointers.</summary>
    PerfInfo32 = 0x10,
    /// <summary>PERFINFO_TRACE_HEADER, 16 bytes, 64-bit pointers.</summary>
    PerfInfo64 = 0x11,
    /// <summary>EVENT_HEADER, 80 bytes plus extended data items, 32-bit pointers.</summary>
    Event32 = 0x12,
    /// <summary>EVENT_HEADER, 80 bytes plus extended data items, 64-bit pointers.</summary>
    Event64 = 0x13,
    /// <summary>EVENT_TRACE_HEADER, 48 bytes, 64-bit pointers.</summary>
    Full64 = 0x14,
    /// <summary>EVENT_INSTANCE_GUID_HEADER, 72 bytes, 64-bit pointers.</summary>
    Instance64 = 0x15,
}
