using System.Buffers.Binary;
using System.Text;

namespace SqlWaitProbe.SqlServer.Xe;

/// <summary>
/// The metadata block of an <c>.xel</c> file: the time base, and the packages' types, maps, events (with
/// their data columns) and actions, each identified by a 4-byte key (package index, object id, kind).
/// Kinds seen: 0x00 event, 0x10 action, 0x30 map, 0x60 type.
/// </summary>
internal sealed class XelMetadata
{
    public Dictionary<uint, string> TypeNames { get; } = [];

    public Dictionary<uint, XelEventInfo> Events { get; } = [];

    public Dictionary<uint, (string Name, uint TypeKey)> Actions { get; } = [];

    public DateTime BaseUtc { get; private set; } = DateTime.MinValue;

    public long TicksPerSecond { get; private set; } = TimeSpan.TicksPerSecond;

    /// <summary>Reads one metadata block payload.</summary>
    public void Add(ReadOnlySpan<byte> data)
    {
        // Each package record: u16 0x000a, u32 size, session guid, …, FILETIME base at +0x20, tick frequency at +0x28.
        if (BaseUtc == DateTime.MinValue && data.Length >= 0x30 && BinaryPrimitives.ReadUInt16LittleEndian(data) == 0x000a)
        {
            var fileTime = BinaryPrimitives.ReadInt64LittleEndian(data[0x20..]);
            var frequency = BinaryPrimitives.ReadInt64LittleEndian(data[0x28..]);
            if (fileTime > 0 && frequency > 0)
            {
                BaseUtc = DateTime.FromFileTimeUtc(fileTime);
                TicksPerSecond = frequency;
            }
        }

        // Objects are found by their key followed by a UTF-16 identifier; kinds decide what follows.
        for (var i = 0; i + 10 < data.Length; i++)
        {
            var kind = data[i + 3];
            if (data[i] > 0x0f || kind is not (0x00 or 0x10 or 0x30 or 0x60) || !TryIdentifier(data, i + 4, out var name, out var after))
            {
                continue;
            }

            var key = BinaryPrimitives.ReadUInt32LittleEndian(data[i..]);
            switch (kind)
            {
                case 0x60 or 0x30:
                    TypeNames.TryAdd(key, name);
                    break;
                case 0x10 when !Actions.ContainsKey(key) && TrySkipString(data, after, out var typeAt) && typeAt + 4 <= data.Length:
                    Actions[key] = (name, BinaryPrimitives.ReadUInt32LittleEndian(data[typeAt..]));
                    break;
                case 0x00 when !Events.ContainsKey(key) && TryEvent(data, name, after, out var info):
                    Events[key] = info;
                    break;
            }
        }
    }

    private bool TryEvent(ReadOnlySpan<byte> data, string name, int after, out XelEventInfo info)
    {
        info = null!;
        if (!TrySkipString(data, after, out var p) || p + 8 > data.Length)
        {
            return false;
        }

        int readOnly = BinaryPrimitives.ReadUInt16LittleEndian(data[p..]);
        int customizable = BinaryPrimitives.ReadUInt16LittleEndian(data[(p + 2)..]);
        int columns = BinaryPrimitives.ReadUInt16LittleEndian(data[(p + 4)..]);
        if (readOnly > 32 || customizable > 64 || columns is 0 or > 256)
        {
            return false;
        }

        p += 8;
        for (var c = 0; c < readOnly + customizable; c++)
        {
            // Read-only columns hold a 16-byte guid or an 8-byte value; customizable ones three 8-byte values.
            if (p + 4 > data.Length || !TryIdentifier(data, p + 4, out _, out var valueAt))
            {
                return false;
            }

            var isGuid = TypeName(BinaryPrimitives.ReadUInt32LittleEndian(data[p..])) is "guid_ptr" or "guid";
            var valueSize = c < readOnly ? (isGuid ? 16 : 8) : 24;
            if (!TrySkipString(data, valueAt + valueSize, out p))
            {
                return false;
            }
        }

        var list = new List<XelColumn>(columns);
        for (var c = 0; c < columns; c++)
        {
            if (p + 4 > data.Length || !TryIdentifier(data, p + 4, out var column, out var offsetAt) || offsetAt + 4 > data.Length)
            {
                return false;
            }

            var typeKey = BinaryPrimitives.ReadUInt32LittleEndian(data[p..]);
            list.Add(new XelColumn(column, typeKey, BinaryPrimitives.ReadUInt16LittleEndian(data[offsetAt..])));
            if (!TrySkipString(data, offsetAt + 4, out p))
            {
                return false;
            }
        }

        info = new XelEventInfo(name, list.OrderBy(c => c.Offset).ToList());
        return true;
    }

    public string TypeName(uint key) => TypeNames.TryGetValue(key, out var n) ? n : (key >> 24) == 0x30 ? "map" : "unknown";

    /// <summary>A NUL-terminated UTF-16 identifier (letters, digits, underscore, at least one character) at <paramref name="at"/>.</summary>
    private static bool TryIdentifier(ReadOnlySpan<byte> data, int at, out string name, out int after)
    {
        name = "";
        after = at;
        var sb = new StringBuilder();
        var i = at;
        while (i + 1 < data.Length)
        {
            var c = (char)BinaryPrimitives.ReadUInt16LittleEndian(data[i..]);
            i += 2;
            if (c == '\0')
            {
                if (sb.Length == 0 || !char.IsAsciiLetter(sb[0]))
                {
                    return false;
                }

                name = sb.ToString();
                after = i;
                return true;
            }

            if (!(char.IsAsciiLetterOrDigit(c) || c == '_') || sb.Length > 128)
            {
                return false;
            }

            sb.Append(c);
        }

        return false;
    }

    /// <summary>Skips a NUL-terminated UTF-16 string (a description) starting at <paramref name="at"/>.</summary>
    private static bool TrySkipString(ReadOnlySpan<byte> data, int at, out int after)
    {
        for (var i = at; i + 1 < data.Length; i += 2)
        {
            if (data[i] == 0 && data[i + 1] == 0)
            {
                after = i + 2;
                return true;
            }
        }

        after = at;
        return false;
    }
}

/// <summary>An event's name and data columns (sorted by offset in the event's fixed area).</summary>
internal sealed record XelEventInfo(string Name, IReadOnlyList<XelColumn> Columns);

/// <summary>A data column: its name, type key and offset in the fixed area (variable-length ones hold an offset/length pair there).</summary>
internal sealed record XelColumn(string Name, uint TypeKey, int Offset);
