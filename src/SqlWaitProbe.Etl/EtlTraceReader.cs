using System.Globalization;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Etl.Format;
using SqlWaitProbe.Etl.Kernel;
using SqlWaitProbe.Etl.Model;
using SqlWaitProbe.Etl.Stacks;

namespace SqlWaitProbe.Etl;

/// <summary>
/// Reads a Windows event trace log (.etl) with managed code only, on any OS: the buffers (plain or LZ77-compressed),
/// every record header kind, the records of all processors merged into time order, and the kernel events a CPU
/// profile needs — processes, threads and images over time (ids are reused, images load and unload), profile
/// samples with their stacks (whole, split at the kernel's edge, or cached under Windows 8 stack keys), context
/// switches and ready-thread events, the images' PDB identities and the names of JIT-compiled .NET methods.
/// A trace that is not what the format allows is bad input: one line naming the file and the byte.
/// </summary>
public sealed class EtlTraceReader
{
    private static readonly string[] ProcessNames = ["", "Start", "Stop", "DCStart", "DCStop"];

    private readonly EtlRecordStream _stream;
    private readonly string _name;
    private readonly EtlLimits _limits;
    private readonly Dictionary<int, EtlProcess> _processes = [];
    private readonly Dictionary<int, EtlThread> _threads = [];
    private readonly List<EtlProcess> _allProcesses = [];
    private readonly Dictionary<int, List<EtlDraft>> _threadUnknown = [];
    private readonly Dictionary<int, EtlThread> _unnamedThreads = [];
    private long _waitingForThread;
    private readonly EtlImageMap _kernelImages = new();
    private readonly ulong _kernelStart;
    private EtlStackAssembler? _stacks;
    private IEtlSink? _sink;
    private long _imageEpoch;
    private long _images;
    private long _methods;
    private (long Timestamp, EtlImage Image)? _lastImage;
    private (long Timestamp, ulong Base, Guid Signature, int Age, string Pdb)? _pendingPdb;
    private bool _read;

    private EtlTraceReader(EtlRecordStream stream, string name, EtlLimits limits)
    {
        _stream = stream;
        _name = name;
        _limits = limits;
        _kernelStart = stream.Info.PointerSize == 8 ? 0xFFFF_8000_0000_0000UL : 0x8000_0000UL;
    }

    /// <summary>The trace's header facts.</summary>
    public EtlTraceInfo Info => _stream.Info;

    /// <summary>What reading counted (complete once <see cref="Read"/> returns).</summary>
    public EtlStatistics Statistics { get; } = new();

    /// <summary>Buffers in the file.</summary>
    public long Buffers => _stream.Buffers;

    /// <summary>Every process the trace named, in the order seen (reused ids appear once per process).</summary>
    public IReadOnlyList<EtlProcess> Processes => _allProcesses;

    /// <summary>Every image the trace named, kernel images and unloaded ones included.</summary>
    public IEnumerable<EtlImage> Images => _kernelImages.All.Concat(_allProcesses.SelectMany(p => p.Images.All));

    /// <summary>The first address of kernel space in this trace.</summary>
    public ulong KernelStart => _kernelStart;

    /// <summary>
    /// Opens a trace: reads its log file header and indexes its buffers. <paramref name="file"/> must be seekable
    /// (the merge reads each processor's buffers in turn); <paramref name="name"/> names it in errors.
    /// </summary>
    public static EtlTraceReader Open(Stream file, string name, EtlLimits? limits = null)
    {
        ArgumentNullException.ThrowIfNull(file);
        limits ??= EtlLimits.Default;
        return Guard(name, () => new EtlTraceReader(EtlRecordStream.Open(file, limits), name, limits));
    }

    /// <summary>Reads every event once, handing samples, context switches and ready-thread events to <paramref name="sink"/>.</summary>
    public void Read(IEtlSink sink, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(sink);
        if (_read)
        {
            throw new InvalidOperationException("a trace is read once");
        }

        _read = true;
        _sink = sink;
        _stacks = new EtlStackAssembler(Emit, _kernelStart)
        {
            SecondOf = ts => (long)Math.Floor((ts - Info.StartTimestamp) / Info.TicksPerSecond),
            ImageEpoch = () => _imageEpoch,
        };
        Guard(_name, () =>
        {
            _stream.ForEach(Dispatch, cancellationToken);
            _stacks.Finish(!_limits.UndefinedStackKeysAreDamage || Info.EventsLost > 0 || Info.BuffersLost > 0);

            // Threads the trace never named: their events keep an unknown process.
            foreach (var draft in _threadUnknown.Values.SelectMany(d => d).Where(d => d.Emitted).OrderBy(d => d.Timestamp))
            {
                draft.ProcessUnknown = false;
                Hand(draft);
            }

            _threadUnknown.Clear();
            Statistics.SamplesMissingCachedFrames = _stacks.MissingCachedFrames;
            return 0;
        });
    }

    /// <summary>The JIT-compiled method holding <paramref name="address"/> in <paramref name="process"/>, once the trace is read; null when the trace does not name one.</summary>
    public EtlManagedMethod? FindMethod(EtlProcess process, ulong address)
    {
        ArgumentNullException.ThrowIfNull(process);
        return process.Methods?.Find(address);
    }

    /// <summary>True when the trace names JIT-compiled methods of <paramref name="process"/> (once the trace is read).</summary>
    public bool HasMethods(EtlProcess process)
    {
        ArgumentNullException.ThrowIfNull(process);
        return process.Methods is { Count: > 0 };
    }

    private void Dispatch(in EtlRecord record)
    {
        var index = ++Statistics.Records;
        if (record.PointerSize == 8 && Info.PointerSize == 4)
        {
            throw new EtlFormatException(record.Location, "a record with 64-bit pointers in a trace whose log file header says pointers are 32-bit: the pointer size changes, so the trace is damaged");
        }

        switch (record.Group)
        {
            case KernelGroup.PerfInfo when record.Type == KernelGroup.SampledProfile:
                OnSample(record, index);
                break;
            case KernelGroup.PerfInfo when record.Type == KernelGroup.CollectionStart:
                OnInterval(record);
                break;
            case KernelGroup.StackWalk:
                OnStackWalk(record);
                break;
            case KernelGroup.Thread:
                OnThread(record, index);
                break;
            case KernelGroup.Process:
                OnProcess(record);
                break;
            case KernelGroup.Image:
                OnImage(record);
                break;
            case KernelGroup.Header when record.Type == 0 && index > 1:
                // A second log file header (a merge of several files) must agree on the pointer size.
                if (record.PointerSize != Info.PointerSize)
                {
                    throw new EtlFormatException(record.Location, "a second log file header gives another pointer size than the first: the pointer size changes, so the trace is damaged");
                }

                break;
            case -1 when record.ProviderId == ImageIdentity.ImageIdGuid && record.Type == ImageIdentity.DbgIdRsds:
                OnPdb(record);
                break;
            case -1 when ClrEvents.IsMethod(record):
                OnMethod(record);
                break;
            case -1 when ClrEvents.IsModule(record):
                var (moduleId, path) = ClrEvents.ParseModule(record);
                MethodsOf(record.ProcessId).AddModule(moduleId, path);
                break;
        }

        _stacks!.Advance(index);
        if (_stacks.Live > _limits.MapEntries || _stacks.Fragments > _limits.MapEntries)
        {
            throw new EtlFormatException(record.Location, string.Create(CultureInfo.InvariantCulture,
                $"more than {_limits.MapEntries} samples or stack parts wait for the rest of their stacks; the trace is damaged or hostile"));
        }
    }

    private void OnSample(in EtlRecord record, long index)
    {
        var sample = SampledProfile.Parse(record);
        Statistics.Samples++;

        // The Idle process's threads (id 0) only count when they run a DPC or an interrupt: otherwise the processor had
        // nothing to do, and PerfView (TraceLog) leaves the sample out.
        if (sample.ThreadId == 0 && !sample.NonProcess)
        {
            Statistics.IdleSamples++;
            return;
        }

        Statistics.Count("PerfInfo/Sample");
        _stacks!.Add(Draft(sample.ThreadId, record, index, sample.InstructionPointer, null));
    }

    // An event of a thread no event has named yet waits for the thread's rundown (or start, or end) to say its process.
    private EtlDraft Draft(int tid, in EtlRecord record, long index, ulong instructionPointer, CSwitchEvent? contextSwitch)
    {
        if (_threads.TryGetValue(tid, out var thread) || tid == 0)
        {
            return new EtlDraft(thread?.Process ?? ProcessById(0, record.Timestamp), tid, record.Processor, record.Timestamp, index, instructionPointer, contextSwitch);
        }

        var draft = new EtlDraft(ProcessById(-1, record.Timestamp), tid, record.Processor, record.Timestamp, index, instructionPointer, contextSwitch) { ProcessUnknown = true };
        if (!_threadUnknown.TryGetValue(tid, out var waiting))
        {
            _threadUnknown[tid] = waiting = [];
        }

        waiting.Add(draft);
        CheckMap(++_waitingForThread, "events of threads not yet named", record);
        return draft;
    }

    // The thread is named: its earlier events get its process; those already complete are handed over now.
    private void ThreadNamed(EtlThread thread)
    {
        if (!_threadUnknown.Remove(thread.Id, out var waiting))
        {
            return;
        }

        _waitingForThread -= waiting.Count;
        foreach (var draft in waiting)
        {
            draft.Process = thread.Process;
            draft.ProcessUnknown = false;
            if (draft.Emitted)
            {
                Hand(draft);
            }
        }
    }

    private void OnInterval(in EtlRecord record)
    {
        var p = new PayloadReader(record, "PerfInfo/CollectionStart");
        var source = p.U32("Source");
        var interval = p.U32("NewInterval");
        if (source == 0 && interval > 0 && Statistics.SampleIntervalMSec is null)
        {
            // The interval is in 100 ns units.
            Statistics.SampleIntervalMSec = interval / 10_000.0;
        }
    }

    private void OnStackWalk(in EtlRecord record)
    {
        switch (record.Type)
        {
            case KernelGroup.Stack:
                Statistics.Count("StackWalk/Stack");
                var stack = StackWalkStack.Parse(record);
                _stacks!.OnStack(stack, record.Processor, ThreadFor(stack.ThreadId, record));
                break;
            case KernelGroup.StackKeyKernel or KernelGroup.StackKeyUser:
                var user = record.Type == KernelGroup.StackKeyUser;
                Statistics.Count(user ? "StackWalk/StackKeyUser" : "StackWalk/StackKeyKernel");
                var reference = StackKeyReference.Parse(record);
                _stacks!.OnKeyReference(reference, user, record.Processor, ThreadFor(reference.ThreadId, record), record.Position);
                break;
            case KernelGroup.KeyDelete or KernelGroup.KeyRundown:
                Statistics.Count(record.Type == KernelGroup.KeyRundown ? "StackWalk/KeyRundown" : "StackWalk/KeyDelete");
                _stacks!.OnKeyDefinition(StackKeyDefinition.Parse(record));
                break;
        }
    }

    private void OnThread(in EtlRecord record, long index)
    {
        switch (record.Type)
        {
            case KernelGroup.Start or KernelGroup.DCStart:
            {
                Statistics.Count(record.Type == KernelGroup.Start ? "Thread/Start" : "Thread/DCStart");
                var e = ThreadEvent.Parse(record);
                var process = ProcessById(e.ProcessId, record.Timestamp);
                if (_threads.TryGetValue(e.ThreadId, out var old))
                {
                    if (ReferenceEquals(old.Process, process) && record.Type == KernelGroup.DCStart)
                    {
                        break;
                    }

                    _stacks!.ThreadEnded(old);
                }

                AddThread(new EtlThread(e.ThreadId, process), record);
                break;
            }

            case KernelGroup.End or KernelGroup.DCEnd:
            {
                Statistics.Count(record.Type == KernelGroup.End ? "Thread/Stop" : "Thread/DCStop");
                var e = ThreadEvent.Parse(record);
                if (!_threads.TryGetValue(e.ThreadId, out var thread))
                {
                    AddThread(new EtlThread(e.ThreadId, ProcessById(e.ProcessId, record.Timestamp)), record);
                }
                else if (record.Type == KernelGroup.End)
                {
                    // An exiting thread never returns to user mode: its samples in the kernel keep their kernel part only.
                    _stacks!.ThreadEnded(thread);
                }

                break;
            }

            case KernelGroup.CSwitch:
            {
                Statistics.Count("Thread/CSwitch");
                Statistics.ContextSwitches++;
                var e = CSwitchEvent.Parse(record);

                // A switch whose stack the sink does not want is handed over at once: waiting for its (cached) stack
                // would hold every context switch of the machine until the trace's end.
                var known = _threads.TryGetValue(e.NewThreadId, out var switchedIn) || e.NewThreadId == 0;
                if (known && !_sink!.WantsSwitchStack(switchedIn?.Process ?? ProcessById(0, record.Timestamp)))
                {
                    Hand(new EtlDraft(switchedIn?.Process ?? ProcessById(0, record.Timestamp), e.NewThreadId, record.Processor, record.Timestamp, index, 0, e));
                    break;
                }

                _stacks!.Add(Draft(e.NewThreadId, record, index, 0, e));
                break;
            }

            case KernelGroup.ReadyThread:
            {
                Statistics.Count("Dispatcher/ReadyThread");
                Statistics.ReadyThreads++;
                var e = ReadyThreadEvent.Parse(record);
                _sink!.ReadyThread(new EtlReadyThread(record.Timestamp, Info.RelativeMSec(record.Timestamp), record.Processor, e.ThreadId,
                    _threads.GetValueOrDefault(e.ThreadId)?.Process, record.ThreadId, e.AdjustReason, e.AdjustIncrement, e.Flag));
                break;
            }
        }
    }

    private void AddThread(EtlThread thread, in EtlRecord record)
    {
        _threads[thread.Id] = thread;
        CheckMap(_threads.Count, "threads", record);
        if (_unnamedThreads.Remove(thread.Id, out var unnamed))
        {
            _stacks!.ThreadNamed(unnamed, thread);
        }

        ThreadNamed(thread);
    }

    // The thread a stack event names; one not named yet still collects its events waiting in the kernel.
    private EtlThread? ThreadFor(int tid, in EtlRecord record)
    {
        if (_threads.TryGetValue(tid, out var thread) || tid == 0)
        {
            return thread;
        }

        if (!_unnamedThreads.TryGetValue(tid, out thread))
        {
            _unnamedThreads[tid] = thread = new EtlThread(tid, ProcessById(-1, record.Timestamp));
            CheckMap(_unnamedThreads.Count, "threads not yet named", record);
        }

        return thread;
    }

    private void OnProcess(in EtlRecord record)
    {
        if (record.Type is not (KernelGroup.Start or KernelGroup.End or KernelGroup.DCStart or KernelGroup.DCEnd or KernelGroup.Defunct))
        {
            return;
        }

        Statistics.Count(record.Type == KernelGroup.Defunct ? "Process/Defunct" : "Process/" + ProcessNames[record.Type]);
        var e = ProcessEvent.Parse(record);
        _processes.TryGetValue(e.ProcessId, out var known);
        switch (record.Type)
        {
            case KernelGroup.Start or KernelGroup.DCStart:
                if (known is not null && known.EndTimestamp == long.MaxValue && (record.Type == KernelGroup.DCStart || known.ImageFileName.Length == 0))
                {
                    // The same process, seen before its own event (an image or thread event named its id first).
                    known.ImageFileName = e.ImageFileName;
                    break;
                }

                AddProcess(new EtlProcess(e.ProcessId, e.ImageFileName, record.Type == KernelGroup.Start ? record.Timestamp : long.MinValue), record);
                break;
            case KernelGroup.End:
                var ended = known ?? AddProcess(new EtlProcess(e.ProcessId, e.ImageFileName, long.MinValue), record);
                ended.EndTimestamp = record.Timestamp;
                if (ended.ImageFileName.Length == 0)
                {
                    ended.ImageFileName = e.ImageFileName;
                }

                break;
            default:
                if (known is null)
                {
                    AddProcess(new EtlProcess(e.ProcessId, e.ImageFileName, long.MinValue), record);
                }
                else if (known.ImageFileName.Length == 0)
                {
                    known.ImageFileName = e.ImageFileName;
                }

                break;
        }
    }

    private EtlProcess AddProcess(EtlProcess process, in EtlRecord record)
    {
        _processes[process.Id] = process;
        _allProcesses.Add(process);
        CheckMap(_allProcesses.Count, "processes", record);
        return process;
    }

    private void OnImage(in EtlRecord record)
    {
        var name = record.Type switch
        {
            KernelGroup.ImageLoad => "Image/Load",
            KernelGroup.End => "Image/Unload",
            KernelGroup.DCStart => "Image/DCStart",
            KernelGroup.DCEnd => "Image/DCStop",
            _ => null,
        };
        if (name is null)
        {
            return;
        }

        Statistics.Count(name);
        var e = ImageEvent.Parse(record);
        var map = e.ProcessId == 0 || e.ImageBase >= _kernelStart ? _kernelImages : ProcessById(e.ProcessId, record.Timestamp).Images;
        switch (record.Type)
        {
            case KernelGroup.ImageLoad or KernelGroup.DCStart:
                if (record.Type == KernelGroup.DCStart && map.LoadedAt(e.ImageBase, record.Timestamp) is not null)
                {
                    break;
                }

                var image = new EtlImage
                {
                    FilePath = e.FileName, Base = e.ImageBase, Size = e.ImageSize, ProcessId = e.ProcessId, CheckSum = e.CheckSum,
                    TimeDateStamp = e.TimeDateStamp, LoadTimestamp = record.Type == KernelGroup.ImageLoad ? record.Timestamp : long.MinValue,
                };
                map.Add(image);
                _imageEpoch++;
                CheckMap(++_images, "images", record);
                if (_pendingPdb is { } pdb && pdb.Timestamp == record.Timestamp && pdb.Base == e.ImageBase)
                {
                    SetPdb(image, pdb.Signature, pdb.Age, pdb.Pdb);
                    _pendingPdb = null;
                }

                _lastImage = (record.Timestamp, image);
                break;
            case KernelGroup.End:
                if (map.LoadedAt(e.ImageBase, record.Timestamp) is { } unloaded)
                {
                    unloaded.UnloadTimestamp = record.Timestamp;
                    _imageEpoch++;
                }

                break;
        }
    }

    // KernelTraceControl logs an image's PDB identity with the timestamp of its Image event, just before or after it.
    private void OnPdb(in EtlRecord record)
    {
        Statistics.Count("KernelTraceControl/ImageID/DbgID_RSDS");
        var (imageBase, signature, age, pdb) = ImageIdentity.ParseRsds(record);
        if (_lastImage is { } last && last.Timestamp == record.Timestamp && last.Image.Base == imageBase && last.Image.PdbName is null)
        {
            SetPdb(last.Image, signature, age, pdb);
            return;
        }

        _pendingPdb = (record.Timestamp, imageBase, signature, age, pdb);
    }

    private static void SetPdb(EtlImage image, Guid signature, int age, string pdb)
    {
        image.PdbSignature = signature;
        image.PdbAge = age;
        image.PdbName = pdb;
    }

    private void OnMethod(in EtlRecord record)
    {
        var (moduleId, start, size, name) = ClrEvents.ParseMethod(record);
        MethodsOf(record.ProcessId).AddMethod(moduleId, start, size, name);
        CheckMap(++_methods, "JIT-compiled methods", record);
    }

    private EtlMethodMap MethodsOf(int pid)
    {
        var process = ProcessById(pid, long.MaxValue);
        return process.Methods ??= new EtlMethodMap();
    }

    private EtlProcess ProcessById(int pid, long timestamp)
    {
        if (_processes.TryGetValue(pid, out var process))
        {
            return process;
        }

        process = new EtlProcess(pid, pid == 0 ? "Idle" : string.Empty, timestamp == long.MaxValue ? long.MinValue : timestamp);
        _processes[pid] = process;
        _allProcesses.Add(process);
        return process;
    }

    private void CheckMap(long count, string what, in EtlRecord record)
    {
        if (count > _limits.MapEntries)
        {
            throw new EtlFormatException(record.Location, string.Create(CultureInfo.InvariantCulture,
                $"the trace names more than {_limits.MapEntries} {what}; it is damaged or hostile"));
        }
    }

    // The assembler's output: complete, unless the thread's process is not known yet (then handed over when it is).
    private void Emit(EtlDraft draft)
    {
        if (!draft.ProcessUnknown)
        {
            Hand(draft);
        }
    }

    private void Hand(EtlDraft draft)
    {
        var frames = new List<EtlFrame>((draft.KernelFrames?.Length ?? 0) + (draft.UserFrames?.Length ?? 0));
        Resolve(draft, draft.KernelFrames, frames);
        Resolve(draft, draft.UserFrames, frames);
        var walked = frames.Count > 0;
        if (draft.ContextSwitch is { } cs)
        {
            _sink!.ContextSwitch(new EtlContextSwitch(draft.Timestamp, Info.RelativeMSec(draft.Timestamp), draft.Processor, cs.NewThreadId, draft.Process,
                cs.OldThreadId, _threads.GetValueOrDefault(cs.OldThreadId)?.Process, cs.NewThreadPriority, cs.OldThreadPriority,
                cs.OldThreadWaitReason, cs.OldThreadWaitMode, cs.OldThreadState, cs.NewThreadWaitTime, frames));
            return;
        }

        if (!walked)
        {
            Statistics.SamplesWithoutStack += draft.Count;
            Resolve(draft, [draft.InstructionPointer], frames);
        }

        _sink!.Sample(new EtlStackSample(draft.Process, draft.ThreadId, draft.Processor, draft.Timestamp, Info.RelativeMSec(draft.Timestamp),
            draft.Count, draft.InstructionPointer, frames, walked));
    }

    private void Resolve(EtlDraft draft, ulong[]? addresses, List<EtlFrame> frames)
    {
        if (addresses is null)
        {
            return;
        }

        foreach (var address in addresses)
        {
            var kernel = address >= _kernelStart;
            var image = kernel ? _kernelImages.Find(address, draft.Timestamp) : draft.Process.Images.Find(address, draft.Timestamp);
            frames.Add(new EtlFrame(address, image, kernel));
        }
    }

    // Format damage becomes the one-line bad-input error naming the file; a read past the end of the file too.
    private static T Guard<T>(string name, Func<T> read)
    {
        try
        {
            return read();
        }
        catch (EtlFormatException e)
        {
            throw new BadInputException($"{e.Location}: {e.Problem}", name);
        }
        catch (EndOfStreamException)
        {
            throw new BadInputException("the file ends inside a buffer; it is truncated", name);
        }
    }
}
