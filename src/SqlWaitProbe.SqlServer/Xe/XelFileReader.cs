using System.Buffers.Binary;
using System.Globalization;
using System.Text;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.SqlServer.Xe;

/// <summary>
/// Reads SQL Server extended-event files (<c>.xel</c>) without SQL Server. Layout, as observed on real files:
/// a 512-byte file header, then blocks, each with a header (<c>u32 0xFFFFFFFF</c> at +8, <c>u16 0x000A</c> at +12,
/// metadata flag at +14, block size at +16, header size at +22, payload size at +24). Metadata blocks describe
/// packages, types, maps, events with their columns, and actions. Event blocks hold events: a 24-byte header
/// (key, flags, timestamp in ticks since the metadata's base time, data size), the data (fixed-size columns
/// at their offsets; variable-length columns as an offset/length pair pointing into the same data), then
/// action records (key, length, value) ended by a record whose kind is 0x60.
/// </summary>
public static class XelFileReader
{
    private const int FileHeaderSize = 512;
    private const int BlockHeaderMinimum = 0x20;

    /// <summary>Reads every event of the file, in file order. Throws <see cref="BadInputException"/> for files that are not XEL.</summary>
    public static IEnumerable<XelEvent> Read(string path)
    {
        using var stream = File.OpenRead(path);
        if (stream.Length < FileHeaderSize + BlockHeaderMinimum)
        {
            // An empty file, a few random bytes or a line of text would otherwise read as a file without events.
            throw new BadInputException($"not an XEL file: {stream.Length.ToString(CultureInfo.InvariantCulture)} bytes, where an extended-event file has a {FileHeaderSize}-byte header followed by blocks", path);
        }

        var metadata = new XelMetadata();
        var header = new byte[BlockHeaderMinimum];
        long position = FileHeaderSize;
        while (position + BlockHeaderMinimum <= stream.Length)
        {
            stream.Position = position;
            stream.ReadExactly(header);
            if (BinaryPrimitives.ReadUInt32LittleEndian(header.AsSpan(8)) != 0xFFFFFFFF || BinaryPrimitives.ReadUInt16LittleEndian(header.AsSpan(12)) != 0x000A)
            {
                throw new BadInputException($"no XEL block at byte {position.ToString(CultureInfo.InvariantCulture)}; the file is not an extended-event file or is damaged", path);
            }

            var isMetadata = BinaryPrimitives.ReadUInt16LittleEndian(header.AsSpan(14)) != 0;
            var blockSize = BinaryPrimitives.ReadUInt32LittleEndian(header.AsSpan(16));
            int headerSize = BinaryPrimitives.ReadUInt16LittleEndian(header.AsSpan(22));
            var payloadSize = BinaryPrimitives.ReadUInt32LittleEndian(header.AsSpan(24));
            if (blockSize < headerSize || headerSize < BlockHeaderMinimum || headerSize + payloadSize > blockSize || position + blockSize > stream.Length)
            {
                throw new BadInputException($"XEL block at byte {position.ToString(CultureInfo.InvariantCulture)} has inconsistent sizes; the file is truncated or damaged", path);
            }

            var payload = new byte[payloadSize];
            stream.Position = position + headerSize;
            stream.ReadExactly(payload);
            List<XelEvent> events = [];
            try
            {
                if (isMetadata)
                {
                    metadata.Add(payload);
                }
                else
                {
                    events = ReadEvents(payload, metadata, path);
                }
            }
            catch (Exception e) when (e is ArgumentException or OverflowException or IndexOutOfRangeException or FormatException or InvalidOperationException)
            {
                // Sizes and offsets inside a damaged block point outside it.
                throw new BadInputException($"XEL block at byte {position.ToString(CultureInfo.InvariantCulture)} is damaged ({e.Message})", path);
            }

            foreach (var e in events)
            {
                yield return e;
            }

            position += blockSize;
        }
    }

    /// <summary>The page events of a file written by the probe's <c>--xe pages</c> session.</summary>
    public static IEnumerable<PageEvent> ReadPageEvents(string path, string? pagesField) =>
        Read(path)
            .Where(e => e.Name is "page_allocated" or "page_freed")
            .Select(e => new PageEvent(
                e.Utc,
                e.Name,
                e.Actions.TryGetValue("session_id", out var s) && s is ulong sid ? (int)sid : null,
                e.Fields.TryGetValue("memory_clerk_name", out var c) ? c as string ?? "" : "",
                pagesField is not null && e.Fields.TryGetValue(pagesField, out var p) && p is ulong pages ? (long)pages : 1));

    private static List<XelEvent> ReadEvents(byte[] payload, XelMetadata metadata, string path)
    {
        var events = new List<XelEvent>();
        var p = 0;
        while (p + 24 <= payload.Length)
        {
            var span = payload.AsSpan(p);
            var key = BinaryPrimitives.ReadUInt32LittleEndian(span);
            var ticks = BinaryPrimitives.ReadInt64LittleEndian(span[12..]);
            var size = (int)BinaryPrimitives.ReadUInt32LittleEndian(span[20..]);
            if ((key >> 24) != 0 || p + 24 + size > payload.Length)
            {
                throw new BadInputException($"XEL event at payload byte {p.ToString(CultureInfo.InvariantCulture)} is damaged", path);
            }

            var data = payload.AsSpan(p + 24, size);
            metadata.Events.TryGetValue(key, out var info);
            var fields = info is null ? new Dictionary<string, object?>() : DecodeFields(data, info, metadata);
            var actions = new Dictionary<string, object?>(StringComparer.Ordinal);
            var q = p + 24 + size;
            while (true)
            {
                if (q + 8 > payload.Length)
                {
                    throw new BadInputException($"XEL event at payload byte {p.ToString(CultureInfo.InvariantCulture)} has no end marker", path);
                }

                var actionKey = BinaryPrimitives.ReadUInt32LittleEndian(payload.AsSpan(q));
                var length = (int)BinaryPrimitives.ReadUInt32LittleEndian(payload.AsSpan(q + 4));
                q += 8;
                if ((actionKey >> 24) == 0x60)
                {
                    break;
                }

                if (q + length > payload.Length)
                {
                    throw new BadInputException($"XEL action at payload byte {q.ToString(CultureInfo.InvariantCulture)} runs past its block", path);
                }

                if (metadata.Actions.TryGetValue(actionKey, out var action))
                {
                    actions[action.Name] = Decode(payload.AsSpan(q, length), metadata.TypeName(action.TypeKey));
                }

                q += length;
            }

            var utc = metadata.BaseUtc.AddTicks((long)(ticks * ((double)TimeSpan.TicksPerSecond / metadata.TicksPerSecond)));
            events.Add(new XelEvent(info?.Name ?? $"unknown_0x{key.ToString("x8", CultureInfo.InvariantCulture)}", utc, fields, actions));
            p = q;
        }

        return events;
    }

    private static Dictionary<string, object?> DecodeFields(ReadOnlySpan<byte> data, XelEventInfo info, XelMetadata metadata)
    {
        var fields = new Dictionary<string, object?>(StringComparer.Ordinal);
        for (var i = 0; i < info.Columns.Count; i++)
        {
            var column = info.Columns[i];
            var type = metadata.TypeName(column.TypeKey);
            if (IsVariable(type))
            {
                if (column.Offset + 8 > data.Length)
                {
                    continue;
                }

                var offset = (int)BinaryPrimitives.ReadUInt32LittleEndian(data[column.Offset..]);
                var length = (int)BinaryPrimitives.ReadUInt32LittleEndian(data[(column.Offset + 4)..]);
                fields[column.Name] = offset >= 0 && length >= 0 && offset + length <= data.Length ? Decode(data.Slice(offset, length), type) : null;
                continue;
            }

            var next = i + 1 < info.Columns.Count ? info.Columns[i + 1].Offset : column.Offset + FixedSize(type);
            var width = Math.Min(next - column.Offset, data.Length - column.Offset);
            fields[column.Name] = width > 0 ? Decode(data.Slice(column.Offset, width), type) : null;
        }

        return fields;
    }

    private static bool IsVariable(string type) => type is "unicode_string" or "ansi_string" or "binary_data" or "xml" or "callstack" or "unicode_string_ptr" or "ansi_string_ptr";

    private static int FixedSize(string type) => type switch
    {
        "uint8" or "int8" or "boolean" or "char" => 1,
        "uint16" or "int16" or "wchar" => 2,
        "uint32" or "int32" or "float32" => 4,
        "guid" or "guid_ptr" => 16,
        "activity_id" or "activity_id_xfer" => 20,
        _ => 8,
    };

    private static object? Decode(ReadOnlySpan<byte> value, string type)
    {
        switch (type)
        {
            case "unicode_string" or "xml" or "unicode_string_ptr":
                return Encoding.Unicode.GetString(value).TrimEnd('\0');
            case "ansi_string" or "ansi_string_ptr":
                return Encoding.Latin1.GetString(value).TrimEnd('\0');
            case "boolean":
                return value.Length > 0 && value[0] != 0;
            case "int8" or "int16" or "int32" or "int64":
                return value.Length switch
                {
                    1 => (long)(sbyte)value[0],
                    2 => BinaryPrimitives.ReadInt16LittleEndian(value),
                    4 => BinaryPrimitives.ReadInt32LittleEndian(value),
                    >= 8 => BinaryPrimitives.ReadInt64LittleEndian(value),
                    _ => null,
                };
            case "float64" when value.Length >= 8:
                return BinaryPrimitives.ReadDoubleLittleEndian(value);
            case "guid" or "guid_ptr" when value.Length >= 16:
                return new Guid(value[..16]).ToString().ToUpperInvariant();
            case "activity_id" or "activity_id_xfer" when value.Length >= 20:
                return new Guid(value[..16]).ToString().ToUpperInvariant() + "-" + BinaryPrimitives.ReadUInt32LittleEndian(value[16..]).ToString(CultureInfo.InvariantCulture);
            case "binary_data" or "ptr" or "callstack" or "unknown":
                return Convert.ToHexStringLower(value);
        }

        // Unsigned integers and map keys: little-endian of the stored width.
        return value.Length switch
        {
            0 => null,
            1 => (ulong)value[0],
            2 or 3 => (ulong)BinaryPrimitives.ReadUInt16LittleEndian(value),
            >= 4 and < 8 => (ulong)BinaryPrimitives.ReadUInt32LittleEndian(value),
            _ => BinaryPrimitives.ReadUInt64LittleEndian(value),
        };
    }
}
