using System.Buffers.Binary;

namespace SqlWaitProbe.TestSupport.Etl;

/// <summary>
/// Builds .etl files from records laid out as Microsoft documents them (EVENT_TRACE_HEADER, EVENT_HEADER and the
/// kernel's MOF classes) and as the two real PerfView traces hold them (system, compact and perfinfo headers,
/// 72-byte buffer headers, plain LZ77 compression): for tests of what no public trace holds (context switches,
/// 32-bit traces, reused ids, stacks split at the kernel's edge) and for hostile inputs. Records are packed per
/// processor; buffers go to the file in flush order (by their last timestamp), so processors interleave.
/// </summary>
public sealed class EtlTraceBuilder(int pointerSize = 8, int bufferSize = 4096, bool compress = false)
{
    /// <summary>Timestamp of the log file header: time zero.</summary>
    public const long Start = 1_000_000;

    /// <summary>Ticks per second of the trace's clock (QueryPerformanceCounter).</summary>
    public const long Frequency = 10_000_000;

    /// <summary>The KernelTraceControl ImageID task.</summary>
    public static readonly Guid ImageIdGuid = new("b3e675d7-2554-4f18-830b-2762732560de");

    /// <summary>Microsoft-Windows-DotNETRuntime.</summary>
    public static readonly Guid ClrRuntimeGuid = new("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");

    /// <summary>Microsoft-Windows-DotNETRuntimeRundown.</summary>
    public static readonly Guid ClrRundownGuid = new("a669021c-c450-4609-a035-5af59af4df18");

    private readonly SortedDictionary<int, List<(long Timestamp, byte[] Record)>> _records = [];

    /// <summary>Events the header says the session lost.</summary>
    public int EventsLost { get; init; }

    /// <summary>The pointer size the log file header claims (normally the builder's).</summary>
    public int? HeaderPointerSize { get; init; }

    /// <summary>The trace's pointer size.</summary>
    public int PointerSize => pointerSize;

    /// <summary>Milliseconds → a raw timestamp.</summary>
    public static long Ms(double ms) => Start + (long)(ms * Frequency / 1000);

    /// <summary>Adds a raw record to a processor's buffers.</summary>
    public EtlTraceBuilder Add(int cpu, long timestamp, byte[] record)
    {
        if (!_records.TryGetValue(cpu, out var list))
        {
            _records[cpu] = list = [];
        }

        list.Add((timestamp, record));
        return this;
    }

    /// <summary>A system (32 bytes) or compact (24 bytes) header record of a kernel group and type.</summary>
    public static byte[] SystemRecord(int pointerSize, bool compact, int group, int type, int version, int tid, int pid, long timestamp, byte[] payload)
    {
        var headerSize = compact ? 24 : 32;
        var r = new byte[headerSize + payload.Length];
        var kind = (byte)(compact ? (pointerSize == 8 ? 0x04 : 0x03) : (pointerSize == 8 ? 0x02 : 0x01));
        BinaryPrimitives.WriteUInt32LittleEndian(r, 0xC000_0000u | ((uint)kind << 16) | (uint)version);
        BinaryPrimitives.WriteUInt16LittleEndian(r.AsSpan(4), (ushort)r.Length);
        BinaryPrimitives.WriteUInt16LittleEndian(r.AsSpan(6), (ushort)((group << 8) | type));
        BinaryPrimitives.WriteInt32LittleEndian(r.AsSpan(8), tid);
        BinaryPrimitives.WriteInt32LittleEndian(r.AsSpan(12), pid);
        BinaryPrimitives.WriteInt64LittleEndian(r.AsSpan(16), timestamp);
        payload.CopyTo(r, headerSize);
        return r;
    }

    /// <summary>A perfinfo header record (16 bytes: no thread or process id).</summary>
    public static byte[] PerfInfoRecord(int pointerSize, int group, int type, int version, long timestamp, byte[] payload)
    {
        var r = new byte[16 + payload.Length];
        BinaryPrimitives.WriteUInt32LittleEndian(r, 0xC000_0000u | ((uint)(pointerSize == 8 ? 0x11 : 0x10) << 16) | (uint)version);
        BinaryPrimitives.WriteUInt16LittleEndian(r.AsSpan(4), (ushort)r.Length);
        BinaryPrimitives.WriteUInt16LittleEndian(r.AsSpan(6), (ushort)((group << 8) | type));
        BinaryPrimitives.WriteInt64LittleEndian(r.AsSpan(8), timestamp);
        payload.CopyTo(r, 16);
        return r;
    }

    /// <summary>A full EVENT_TRACE_HEADER record (48 bytes) of a classic provider.</summary>
    public static byte[] FullRecord(int pointerSize, Guid guid, int type, int version, int tid, int pid, long timestamp, byte[] payload)
    {
        var r = new byte[48 + payload.Length];
        BinaryPrimitives.WriteUInt16LittleEndian(r, (ushort)r.Length);
        r[2] = (byte)(pointerSize == 8 ? 0x14 : 0x0A);
        r[3] = 0xC0;
        r[4] = (byte)type;
        BinaryPrimitives.WriteUInt16LittleEndian(r.AsSpan(6), (ushort)version);
        BinaryPrimitives.WriteInt32LittleEndian(r.AsSpan(8), tid);
        BinaryPrimitives.WriteInt32LittleEndian(r.AsSpan(12), pid);
        BinaryPrimitives.WriteInt64LittleEndian(r.AsSpan(16), timestamp);
        guid.TryWriteBytes(r.AsSpan(24));
        payload.CopyTo(r, 48);
        return r;
    }

    /// <summary>An EVENT_HEADER record (80 bytes, then extended items, then the payload) of a manifest provider.</summary>
    public static byte[] EventRecord(int pointerSize, Guid provider, int id, int version, int opcode, int tid, int pid, long timestamp, byte[] payload,
        params byte[][] extendedItems)
    {
        var items = new List<byte>();
        for (var i = 0; i < extendedItems.Length; i++)
        {
            var size = (8 + extendedItems[i].Length + 7) & ~7;
            var item = new byte[size];
            BinaryPrimitives.WriteUInt16LittleEndian(item, (ushort)size);
            BinaryPrimitives.WriteUInt16LittleEndian(item.AsSpan(2), 6);
            BinaryPrimitives.WriteUInt16LittleEndian(item.AsSpan(4), (ushort)(i < extendedItems.Length - 1 ? 1 : 0));
            BinaryPrimitives.WriteUInt16LittleEndian(item.AsSpan(6), (ushort)extendedItems[i].Length);
            extendedItems[i].CopyTo(item, 8);
            items.AddRange(item);
        }

        var r = new byte[80 + items.Count + payload.Length];
        BinaryPrimitives.WriteUInt16LittleEndian(r, (ushort)r.Length);
        r[2] = (byte)(pointerSize == 8 ? 0x13 : 0x12);
        r[3] = 0xC0;
        BinaryPrimitives.WriteUInt16LittleEndian(r.AsSpan(4), (ushort)(extendedItems.Length > 0 ? 1 : 0));
        BinaryPrimitives.WriteInt32LittleEndian(r.AsSpan(8), tid);
        BinaryPrimitives.WriteInt32LittleEndian(r.AsSpan(12), pid);
        BinaryPrimitives.WriteInt64LittleEndian(r.AsSpan(16), timestamp);
        provider.TryWriteBytes(r.AsSpan(24));
        BinaryPrimitives.WriteUInt16LittleEndian(r.AsSpan(40), (ushort)id);
        r[42] = (byte)version;
        r[45] = (byte)opcode;
        items.ToArray().CopyTo(r, 80);
        payload.CopyTo(r, 80 + items.Count);
        return r;
    }

    /// <summary>A new payload writer in this trace's pointer size.</summary>
    public PayloadWriter Payload() => new(pointerSize);

    /// <summary>Process Start (or DCStart), version 4 (Process_TypeGroup1 with Flags), with a SID.</summary>
    public EtlTraceBuilder Process(int cpu, long ts, int pid, string imageFileName, bool rundown = false, int parent = 4, int version = 4, uint[]? sid = null) =>
        ProcessEvent(cpu, ts, rundown ? 3 : 1, pid, imageFileName, parent, version, sid ?? [21, 1, 2, 3, 1001]);

    /// <summary>Process End (or DCEnd).</summary>
    public EtlTraceBuilder ProcessEnd(int cpu, long ts, int pid, string imageFileName, bool rundown = false) =>
        ProcessEvent(cpu, ts, rundown ? 4 : 2, pid, imageFileName, 4, 4, null);

    private EtlTraceBuilder ProcessEvent(int cpu, long ts, int type, int pid, string name, int parent, int version, uint[]? sid)
    {
        var p = Payload().Ptr(0xFFFF_FA80_0000_1000).I32(pid).I32(parent).U32(1).I32(259);
        if (version >= 3)
        {
            p.Ptr(0x1000);
        }

        if (version >= 4)
        {
            p.U32(0);
        }

        p.Sid(sid).Ansi(name).Unicode(name + " --run");
        if (version >= 4)
        {
            p.Unicode(string.Empty).Unicode(string.Empty);
        }

        return Add(cpu, ts, PerfInfoRecord(pointerSize, 0x03, type, version, ts, p.ToArray()));
    }

    /// <summary>Thread Start (or DCStart), version 3 layout (ProcessId, TThreadId first).</summary>
    public EtlTraceBuilder Thread(int cpu, long ts, int pid, int tid, bool rundown = false) => ThreadEvent(cpu, ts, rundown ? 3 : 1, pid, tid);

    /// <summary>Thread End (or DCEnd).</summary>
    public EtlTraceBuilder ThreadEnd(int cpu, long ts, int pid, int tid, bool rundown = false) => ThreadEvent(cpu, ts, rundown ? 4 : 2, pid, tid);

    private EtlTraceBuilder ThreadEvent(int cpu, long ts, int type, int pid, int tid)
    {
        var p = Payload().I32(pid).I32(tid);
        for (var i = 0; i < 8; i++)
        {
            p.Ptr(0);
        }

        p.U32(0).U8(8).U8(5).U8(2).U8(0);
        return Add(cpu, ts, SystemRecord(pointerSize, false, 0x05, type, 3, tid, pid, ts, p.ToArray()));
    }

    /// <summary>Image Load (hook 0x030A as the kernel logs it) or DCStart, version 2 (Image_Load).</summary>
    public EtlTraceBuilder Image(int cpu, long ts, int pid, ulong imageBase, ulong size, string path, bool rundown = false) =>
        ImageEvent(cpu, ts, rundown ? (0x14, 3) : (0x03, 10), pid, imageBase, size, path);

    /// <summary>Image Unload.</summary>
    public EtlTraceBuilder ImageUnload(int cpu, long ts, int pid, ulong imageBase, ulong size, string path) =>
        ImageEvent(cpu, ts, (0x14, 2), pid, imageBase, size, path);

    private EtlTraceBuilder ImageEvent(int cpu, long ts, (int Group, int Type) hook, int pid, ulong imageBase, ulong size, string path)
    {
        var p = Payload().Ptr(imageBase).Ptr(size).I32(pid).U32(0x1234).U32(0x5000_0000).U32(0).Ptr(imageBase).U32(0).U32(0).U32(0).U32(0).Unicode(path);
        return Add(cpu, ts, SystemRecord(pointerSize, false, hook.Group, hook.Type, 2, 0, pid, ts, p.ToArray()));
    }

    /// <summary>A PerfInfo SampledProfile: the interrupted instruction and thread; bit 0 of the flags byte for a DPC.</summary>
    public EtlTraceBuilder Sample(int cpu, long ts, int tid, ulong ip, bool dpc = false) =>
        Add(cpu, ts, PerfInfoRecord(pointerSize, 0x0F, 46, 2, ts, Payload().Ptr(ip).I32(tid).U16(1).U8((byte)((dpc ? 1 : 0) | (8 << 3))).U8(0).ToArray()));

    /// <summary>A StackWalk Stack event for the event of thread <paramref name="tid"/> at <paramref name="eventTs"/>.</summary>
    public EtlTraceBuilder Stack(int cpu, long ts, long eventTs, int pid, int tid, params ulong[] framesLeafFirst)
    {
        var p = Payload().U64((ulong)eventTs).I32(pid).I32(tid);
        foreach (var f in framesLeafFirst)
        {
            p.Ptr(f);
        }

        return Add(cpu, ts, PerfInfoRecord(pointerSize, 0x18, 32, 2, ts, p.ToArray()));
    }

    /// <summary>A StackKeyKernel or StackKeyUser reference.</summary>
    public EtlTraceBuilder KeyReference(int cpu, long ts, long eventTs, int pid, int tid, ulong key, bool user) =>
        Add(cpu, ts, PerfInfoRecord(pointerSize, 0x18, user ? 38 : 37, 2, ts, Payload().U64((ulong)eventTs).I32(pid).I32(tid).Ptr(key).ToArray()));

    /// <summary>A KeyDelete (or KeyRundown) definition of a cached stack.</summary>
    public EtlTraceBuilder KeyDefinition(int cpu, long ts, ulong key, bool rundown, params ulong[] framesLeafFirst)
    {
        var p = Payload().Ptr(key);
        foreach (var f in framesLeafFirst)
        {
            p.Ptr(f);
        }

        return Add(cpu, ts, PerfInfoRecord(pointerSize, 0x18, rundown ? 36 : 35, 2, ts, p.ToArray()));
    }

    /// <summary>A CSwitch, laid out as the CSwitch MOF class documents it (24 bytes).</summary>
    public EtlTraceBuilder CSwitch(int cpu, long ts, int newTid, int oldTid, sbyte oldState, sbyte waitReason = 6, sbyte waitMode = 1, uint newWaitTime = 0) =>
        Add(cpu, ts, SystemRecord(pointerSize, true, 0x05, 36, 2, newTid, -1, ts,
            Payload().I32(newTid).I32(oldTid).U8(9).U8(8).U8(1).U8(0).U8((byte)waitReason).U8((byte)waitMode).U8((byte)oldState).U8(3).U32(newWaitTime).U32(0).ToArray()));

    /// <summary>A ReadyThread, laid out as the ReadyThread MOF class documents it (8 bytes).</summary>
    public EtlTraceBuilder ReadyThread(int cpu, long ts, int readierTid, int tid, sbyte flag = 0) =>
        Add(cpu, ts, SystemRecord(pointerSize, true, 0x05, 50, 2, readierTid, -1, ts, Payload().I32(tid).U8(1).U8(2).U8((byte)flag).U8(0).ToArray()));

    /// <summary>A KernelTraceControl ImageID/DbgID_RSDS event (full header) for the image at <paramref name="imageBase"/>.</summary>
    public EtlTraceBuilder Rsds(int cpu, long ts, ulong imageBase, Guid signature, int age, string pdb) =>
        Add(cpu, ts, FullRecord(pointerSize, ImageIdGuid, 36, 2, -1, 0, ts, Payload().Ptr(imageBase).U32(0).Bytes(signature.ToByteArray()).I32(age).Ansi(pdb).ToArray()));

    /// <summary>A .NET MethodLoadVerbose (or rundown MethodDCEndVerbose) event.</summary>
    public EtlTraceBuilder ClrMethod(int cpu, long ts, int pid, ulong moduleId, ulong start, uint size, string ns, string name, bool rundown = false) =>
        Add(cpu, ts, EventRecord(pointerSize, rundown ? ClrRundownGuid : ClrRuntimeGuid, rundown ? 144 : 143, 1, rundown ? 40 : 37, 1, pid, ts,
            new PayloadWriter(pointerSize).U64(start ^ 0x55).U64(moduleId).U64(start).U32(size).U32(0x0600_0001).U32(0).Unicode(ns).Unicode(name).Unicode("void ()").U16(9).ToArray()));

    /// <summary>A .NET ModuleLoad (or rundown ModuleDCEnd) event.</summary>
    public EtlTraceBuilder ClrModule(int cpu, long ts, int pid, ulong moduleId, string ilPath, bool rundown = false) =>
        Add(cpu, ts, EventRecord(pointerSize, rundown ? ClrRundownGuid : ClrRuntimeGuid, rundown ? 154 : 152, 2, rundown ? 36 : 33, 1, pid, ts,
            new PayloadWriter(pointerSize).U64(moduleId).U64(0x77).U32(8).U32(0).Unicode(ilPath).Unicode(string.Empty).U16(9).ToArray()));

    /// <summary>The .etl bytes: the log file header's buffer, then each processor's buffers in flush order.</summary>
    public byte[] Build()
    {
        var buffers = new List<(long LastTimestamp, int Cpu, byte[] Bytes)>
        {
            (long.MinValue, 0, Buffer(0, [HeaderRecord()], header: true)),
        };
        foreach (var (cpu, records) in _records)
        {
            var pending = new List<byte[]>();
            var used = 0;
            long last = 0;
            foreach (var (ts, record) in records.OrderBy(r => r.Timestamp))
            {
                var aligned = (record.Length + 7) & ~7;
                if (used + aligned > bufferSize - 72 && pending.Count > 0)
                {
                    buffers.Add((last, cpu, Buffer(cpu, pending, header: false)));
                    pending = [];
                    used = 0;
                }

                pending.Add(record);
                used += aligned;
                last = ts;
            }

            if (pending.Count > 0)
            {
                buffers.Add((last, cpu, Buffer(cpu, pending, header: false)));
            }
        }

        return buffers.OrderBy(b => b.LastTimestamp).ThenBy(b => b.Cpu).SelectMany(b => b.Bytes).ToArray();
    }

    private byte[] HeaderRecord()
    {
        var ptr = HeaderPointerSize ?? pointerSize;
        var p = new PayloadWriter(pointerSize)
            .U32((uint)bufferSize).U32(0x0002_0206).U32(9200).U32((uint)Math.Max(1, _records.Keys.DefaultIfEmpty(0).Max() + 1))
            .U64((ulong)new DateTime(2026, 1, 5, 10, 0, 1, DateTimeKind.Utc).ToFileTimeUtc()).U32(156_250).U32(0).U32(0x0401_0001).U32(0)
            .U32(1).U32((uint)ptr).U32((uint)EventsLost).U32(3000)
            .Ptr(0).Ptr(0).Bytes(new byte[172]);

        // TIME_ZONE_INFORMATION (172 bytes) leaves BootTime 4 bytes short of its 8-byte alignment with either pointer size.
        p.U32(0).U64(0).U64(Frequency).U64((ulong)new DateTime(2026, 1, 5, 10, 0, 0, DateTimeKind.Utc).ToFileTimeUtc()).U32(1).U32(0)
            .Unicode("probe test session").Unicode("test.etl");
        return SystemRecord(pointerSize, false, 0, 0, 2, 1, 4, Start, p.ToArray());
    }

    private byte[] Buffer(int cpu, List<byte[]> records, bool header)
    {
        var content = new List<byte>();
        foreach (var r in records)
        {
            content.AddRange(r);
            while (content.Count % 8 != 0)
            {
                content.Add(0);
            }
        }

        var filled = 72 + content.Count;
        var packed = compress && !header;
        var body = packed ? Lz77PlainEncoder.Encode(content.ToArray()) : [.. content, .. Enumerable.Repeat((byte)0xFF, bufferSize - filled)];
        var buffer = new byte[72 + body.Length];
        BinaryPrimitives.WriteUInt32LittleEndian(buffer, (uint)buffer.Length);
        BinaryPrimitives.WriteUInt32LittleEndian(buffer.AsSpan(4), (uint)filled);
        BinaryPrimitives.WriteUInt32LittleEndian(buffer.AsSpan(8), (uint)filled);
        BinaryPrimitives.WriteUInt16LittleEndian(buffer.AsSpan(0x28), (ushort)cpu);
        BinaryPrimitives.WriteUInt32LittleEndian(buffer.AsSpan(0x2C), 3);
        BinaryPrimitives.WriteUInt32LittleEndian(buffer.AsSpan(0x30), (uint)filled);
        BinaryPrimitives.WriteUInt16LittleEndian(buffer.AsSpan(0x34), (ushort)(header ? 0x01 : 0x20 | (packed ? 0x40 : 0)));
        BinaryPrimitives.WriteUInt16LittleEndian(buffer.AsSpan(0x36), (ushort)(header ? 4 : 0));
        body.CopyTo(buffer, 72);
        return buffer;
    }
}
