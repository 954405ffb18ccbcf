using System.Buffers.Binary;
using System.Globalization;
using SqlWaitProbe.Etl.Model;

namespace SqlWaitProbe.Etl.Format;

/// <summary>
/// Decodes the TRACE_LOGFILE_HEADER (evntrace.h) that is the payload of a trace's first event (EventTrace group,
/// type 0). Its two name pointers and the padding before BootTime follow the pointer size of the record that holds
/// it: BootTime, PerfFreq, StartTime, ReservedFlags (the clock type) and BuffersLost start at 0xF8 with 8-byte
/// pointers and 0xF0 with 4-byte ones.
/// </summary>
internal static class EtlLogFileHeader
{
    private const long FileTimeTicksPerSecond = 10_000_000;

    /// <summary>Reads the header from <paramref name="record"/>, the first event of the first buffer.</summary>
    public static EtlTraceInfo Parse(EtlRecord record)
    {
        if (!record.Is(Kernel.KernelGroup.Header, 0))
        {
            throw new EtlFormatException(record.Location, "the first event is not the log file header (EventTrace type 0): this is not an event trace log, or its first buffer is damaged");
        }

        var p = record.Payload;
        var ptr = record.PointerSize;
        var tail = ptr == 8 ? 0xF8 : 0xF0;
        if (p.Length < tail + 32)
        {
            throw new EtlFormatException(record.Location, string.Create(CultureInfo.InvariantCulture,
                $"the log file header holds {p.Length} bytes, fewer than the {tail + 32} its layout needs"));
        }

        var pointerSize = BinaryPrimitives.ReadInt32LittleEndian(p[44..]);
        if (pointerSize != 4 && pointerSize != 8)
        {
            throw new EtlFormatException(record.Location, string.Create(CultureInfo.InvariantCulture,
                $"the log file header gives a pointer size of {pointerSize} bytes; only 4 and 8 exist"));
        }

        if (pointerSize != ptr)
        {
            throw new EtlFormatException(record.Location, string.Create(CultureInfo.InvariantCulture,
                $"the log file header says pointers are {pointerSize} bytes but is itself logged with {ptr}-byte pointers"));
        }

        var bufferSize = BinaryPrimitives.ReadInt32LittleEndian(p);
        var version = BinaryPrimitives.ReadUInt32LittleEndian(p[4..]);
        var perfFreq = BinaryPrimitives.ReadInt64LittleEndian(p[(tail + 8)..]);
        var cpuMHz = BinaryPrimitives.ReadInt32LittleEndian(p[52..]);
        var clock = BinaryPrimitives.ReadInt32LittleEndian(p[(tail + 24)..]);
        double ticks = clock switch
        {
            2 => FileTimeTicksPerSecond,
            3 => cpuMHz * 1e6,
            _ => perfFreq,
        };
        if (!(ticks > 0))
        {
            throw new EtlFormatException(record.Location, string.Create(CultureInfo.InvariantCulture,
                $"the log file header gives no usable clock (clock type {clock}, performance frequency {perfFreq}, CPU speed {cpuMHz} MHz)"));
        }

        return new EtlTraceInfo
        {
            BufferSize = bufferSize,
            OsVersion = new Version((int)(version & 0xFF), (int)((version >> 8) & 0xFF)),
            OsBuild = BinaryPrimitives.ReadInt32LittleEndian(p[8..]),
            NumberOfProcessors = BinaryPrimitives.ReadInt32LittleEndian(p[12..]),
            EndUtc = FileTime(BinaryPrimitives.ReadInt64LittleEndian(p[16..])),
            LogFileMode = BinaryPrimitives.ReadInt32LittleEndian(p[32..]),
            BuffersWritten = BinaryPrimitives.ReadUInt32LittleEndian(p[36..]),
            PointerSize = pointerSize,
            EventsLost = BinaryPrimitives.ReadUInt32LittleEndian(p[48..]),
            CpuSpeedMHz = cpuMHz,
            StartUtc = FileTime(BinaryPrimitives.ReadInt64LittleEndian(p[(tail + 16)..])),
            ClockType = clock,
            TicksPerSecond = ticks,
            BuffersLost = BinaryPrimitives.ReadUInt32LittleEndian(p[(tail + 28)..]),
            StartTimestamp = record.Timestamp,
        };
    }

    // A FILETIME out of DateTime's range (a damaged or absent field) reads as the default date, not an error: the
    // stacks do not depend on it.
    private static DateTime FileTime(long value) =>
        value > 0 && value <= DateTime.MaxValue.ToFileTimeUtc() ? DateTime.FromFileTimeUtc(value) : default;
}
