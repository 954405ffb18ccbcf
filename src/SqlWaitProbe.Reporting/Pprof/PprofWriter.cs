using System.IO.Compression;
using Google.Protobuf;
using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Reporting.Pprof;

/// <summary>
/// Writes a stack profile as pprof's gzipped <c>profile.proto</c> (github.com/google/pprof/blob/main/proto/profile.proto),
/// which <c>go tool pprof</c>, Grafana Pyroscope and speedscope read. Each frame is a function in a mapping named after
/// its module; each (process, stack) is one sample labelled <c>process</c>; the value is the weight in the input's unit.
/// </summary>
public static class PprofWriter
{
    // Field numbers of profile.proto.
    private const int ProfileSampleType = 1, ProfileSample = 2, ProfileMapping = 3, ProfileLocation = 4, ProfileFunction = 5, ProfileStringTable = 6;
    private const int ProfilePeriodType = 11, ProfilePeriod = 12, ProfileComment = 13, ProfileDefaultSampleType = 14;

    /// <summary>Writes <paramref name="profile"/>, gzipped, to <paramref name="output"/>.</summary>
    /// <param name="profile">The stacks.</param>
    /// <param name="unit">The weights' unit: <c>none</c> (samples) or a speedscope time or byte unit.</param>
    /// <param name="output">Where the gzipped protobuf goes.</param>
    public static void Write(StackProfile profile, string unit, Stream output)
    {
        ArgumentNullException.ThrowIfNull(profile);
        var strings = new List<string> { string.Empty };
        var stringIds = new Dictionary<string, long>(StringComparer.Ordinal) { [string.Empty] = 0 };
        long S(string s)
        {
            if (!stringIds.TryGetValue(s, out var id))
            {
                id = strings.Count;
                strings.Add(s);
                stringIds.Add(s, id);
            }

            return id;
        }

        var (type, pprofUnit) = unit switch
        {
            "none" => ("samples", "count"),
            "bytes" => ("space", "bytes"),
            _ => ("cpu", unit),
        };

        using var body = new MemoryStream();
        var o = new CodedOutputStream(body, leaveOpen: true);
        var valueType = Message(m => { Field(m, 1, S(type)); Field(m, 2, S(pprofUnit)); });
        Bytes(o, ProfileSampleType, valueType);

        // Functions and locations: one of each per distinct frame; mappings: one per module.
        var mappings = new Dictionary<string, ulong>(StringComparer.Ordinal);
        var locations = new Dictionary<int, ulong>();
        var locationMessages = new List<ByteString>();
        var functionMessages = new List<ByteString>();
        var mappingMessages = new List<ByteString>();
        ulong Location(int frameId)
        {
            if (locations.TryGetValue(frameId, out var id))
            {
                return id;
            }

            var frame = profile.Frames[frameId];
            id = (ulong)locations.Count + 1;
            locations.Add(frameId, id);
            ulong mapping = 0;
            if (frame.Module.Length > 0 && !mappings.TryGetValue(frame.Module, out mapping))
            {
                mapping = (ulong)mappings.Count + 1;
                mappings.Add(frame.Module, mapping);
                var mappingId = mapping;
                // has_functions: the names are already resolved, so readers do not look for the binaries.
                mappingMessages.Add(Message(m => { Field(m, 1, mappingId); Field(m, 5, S(frame.Module)); Field(m, 7, 1L); }));
            }

            var name = frame.Kind switch
            {
                FrameKind.Kernel => frame.Symbol + " [kernel]",
                FrameKind.Jit => frame.Symbol + " [jit]",
                FrameKind.Inlined => frame.Symbol + " [inlined]",
                _ => frame.Symbol,
            };
            var functionId = id;
            functionMessages.Add(Message(m => { Field(m, 1, functionId); Field(m, 2, S(name)); Field(m, 3, S(frame.QualifiedName)); Field(m, 4, S(frame.Module)); }));
            var line = Message(m => Field(m, 1, functionId));
            locationMessages.Add(Message(m =>
            {
                Field(m, 1, functionId);
                if (mapping != 0)
                {
                    Field(m, 2, mapping);
                }

                m.WriteTag(4, WireFormat.WireType.LengthDelimited);
                m.WriteBytes(line);
            }));
            return id;
        }

        var processKey = S("process");
        foreach (var (process, stack, weight) in profile.Entries.OrderBy(e => e.Process, StringComparer.Ordinal).ThenBy(e => e.StackId))
        {
            var frames = profile.Stacks.FramesRootFirst(stack);
            var ids = new ulong[frames.Length];
            for (var i = 0; i < frames.Length; i++)
            {
                // pprof lists a sample's locations leaf first.
                ids[frames.Length - 1 - i] = Location(frames[i]);
            }

            var processValue = S(process);
            Bytes(o, ProfileSample, Message(m =>
            {
                Packed(m, 1, ids);
                m.WriteTag(2, WireFormat.WireType.LengthDelimited);
                m.WriteBytes(Message(v => v.WriteInt64(weight)));
                m.WriteTag(3, WireFormat.WireType.LengthDelimited);
                m.WriteBytes(Message(l => { Field(l, 1, processKey); Field(l, 2, processValue); }));
            }));
        }

        foreach (var m in mappingMessages)
        {
            Bytes(o, ProfileMapping, m);
        }

        foreach (var m in locationMessages)
        {
            Bytes(o, ProfileLocation, m);
        }

        foreach (var m in functionMessages)
        {
            Bytes(o, ProfileFunction, m);
        }

        var comment = S("written by probe (SqlWaitProbe)");
        var defaultType = S(type);
        Bytes(o, ProfilePeriodType, valueType);
        o.WriteTag(ProfilePeriod, WireFormat.WireType.Varint);
        o.WriteInt64(1);
        o.WriteTag(ProfileComment, WireFormat.WireType.Varint);
        o.WriteInt64(comment);
        o.WriteTag(ProfileDefaultSampleType, WireFormat.WireType.Varint);
        o.WriteInt64(defaultType);

        // The string table goes last: every string above has been added by now.
        foreach (var s in strings)
        {
            o.WriteTag(ProfileStringTable, WireFormat.WireType.LengthDelimited);
            o.WriteString(s);
        }

        o.Flush();
        using var gzip = new GZipStream(output, CompressionLevel.Optimal, leaveOpen: true);
        body.Position = 0;
        body.CopyTo(gzip);
    }

    // A nested message (or a packed field's content) as bytes, to be written length-delimited.
    private static ByteString Message(Action<CodedOutputStream> write)
    {
        using var buffer = new MemoryStream();
        var o = new CodedOutputStream(buffer, leaveOpen: true);
        write(o);
        o.Flush();
        return ByteString.CopyFrom(buffer.ToArray());
    }

    private static void Field(CodedOutputStream o, int field, long value)
    {
        o.WriteTag(field, WireFormat.WireType.Varint);
        o.WriteInt64(value);
    }

    private static void Field(CodedOutputStream o, int field, ulong value)
    {
        o.WriteTag(field, WireFormat.WireType.Varint);
        o.WriteUInt64(value);
    }

    private static void Packed(CodedOutputStream o, int field, ulong[] values)
    {
        o.WriteTag(field, WireFormat.WireType.LengthDelimited);
        o.WriteBytes(Message(m =>
        {
            foreach (var v in values)
            {
                m.WriteUInt64(v);
            }
        }));
    }

    private static void Bytes(CodedOutputStream o, int field, ByteString bytes)
    {
        o.WriteTag(field, WireFormat.WireType.LengthDelimited);
        o.WriteBytes(bytes);
    }
}
