using System.Globalization;
using SqlWaitProbe.Etl.Format;
using SqlWaitProbe.Etl.Kernel;
using SqlWaitProbe.Etl.Model;

namespace SqlWaitProbe.Etl.Stacks;

/// <summary>
/// Puts each sample's (and context switch's) stack together from the StackWalk events that name it, as Windows
/// logs them:
/// <list type="bullet">
/// <item>A stack event names its event by thread and timestamp and follows it closely; it is matched among the last
/// <see cref="Window"/> events (the idle threads of all processors share thread id 0, so for them the processor
/// counts too). An event no stack event named by then has no stack.</item>
/// <item>A part that ends in kernel space (a Stack event, or a StackKeyKernel key) waits for the user-mode part,
/// which Windows walks when the thread returns to user mode: the next user-mode part of that thread completes every
/// event of the thread waiting so. Idle and System threads have no user-mode part.</item>
/// <item>With Windows 8 stack caching, a part is a key; a KeyDelete (cache eviction) or KeyRundown (end of trace)
/// event gives its frames, kernel and user keys apart (told by the last frame's address). A key can be reused after
/// its definition, so a definition completes only the events waiting for it then.</item>
/// </list>
/// Memory: events stay in the window or in their thread's list until their user-mode part comes; a sample that then
/// waits only for cached frames merges with any other of the same thread, parts, image map and second.
/// A key never defined by the end of a trace that lost nothing means the file was damaged or spliced.
/// </summary>
internal sealed class EtlStackAssembler(Action<EtlDraft> emit, ulong kernelStart)
{
    /// <summary>How many events back a stack event may name its event, as TraceEvent's TraceLog looks back.</summary>
    public const int Window = 2048;

    private readonly Dictionary<(int Thread, long Timestamp, int Processor), EtlDraft> _recent = [];
    private readonly Queue<EtlDraft> _arrivals = new();
    private readonly Dictionary<ulong, HashSet<EtlDraft>> _kernelWaiters = [];
    private readonly Dictionary<ulong, HashSet<EtlDraft>> _userWaiters = [];
    private readonly Dictionary<ulong, EtlRecordPosition> _firstReference = [];
    private readonly Dictionary<EtlPendingKey, EtlDraft> _merging = [];
    private readonly Dictionary<ulong[], ulong[]> _fragments = new(FrameArrayComparer.Instance);
    private readonly HashSet<EtlThread> _threadsInKernel = [];

    /// <summary>Drafts created and not yet handed over or merged: the memory the assembler holds.</summary>
    public long Live { get; private set; }

    /// <summary>Distinct frame arrays kept.</summary>
    public int Fragments => _fragments.Count;

    /// <summary>Stack events that named no event the assembler tracks (stacks of other events: disk, file, faults).</summary>
    public long OtherStacks { get; private set; }

    /// <summary>Key definitions no waiting event used.</summary>
    public long UnusedDefinitions { get; private set; }

    /// <summary>Samples handed over while still missing cached frames (only at the end).</summary>
    public long MissingCachedFrames { get; private set; }

    /// <summary>A function of a timestamp that groups samples by second, and the image epoch, for merging.</summary>
    public Func<long, long> SecondOf { get; init; } = _ => 0;

    /// <summary>The image map's epoch: changes with every image load or unload.</summary>
    public Func<long> ImageEpoch { get; init; } = () => 0;

    /// <summary>Starts tracking an event that may get a stack.</summary>
    public void Add(EtlDraft draft)
    {
        _recent[Key(draft.ThreadId, draft.Timestamp, draft.Processor)] = draft;
        _arrivals.Enqueue(draft);
        Live++;
    }

    /// <summary>
    /// Ends the matching window of events older than <see cref="Window"/> records before <paramref name="index"/>;
    /// those no stack event named are handed over with their instruction pointer alone.
    /// </summary>
    public void Advance(long index)
    {
        while (_arrivals.Count > 0 && index - _arrivals.Peek().Index > Window)
        {
            var draft = _arrivals.Dequeue();
            Forget(draft);
            if (!draft.HasFragment && !draft.Sealed)
            {
                draft.Sealed = true;
                Emit(draft);
            }
        }
    }

    /// <summary>A StackWalk Stack event.</summary>
    public void OnStack(in StackWalkStack stack, int processor, EtlThread? thread)
    {
        var draft = Find(stack.ThreadId, stack.EventTimestamp, processor);
        if (draft is null || stack.Frames.Length == 0)
        {
            OtherStacks++;
            return;
        }

        var frames = Intern(stack.Frames);
        draft.HasFragment = true;
        if (IsKernel(frames[^1]))
        {
            if (draft.KernelFrames is null && draft.KernelKey == 0)
            {
                draft.KernelFrames = frames;
                WaitForUserPart(draft, thread);
            }

            return;
        }

        // A walk that starts in user mode was taken as the thread left the kernel: it is the user-mode part of every
        // event the thread logged in the kernel since; one that starts in the kernel holds the whole stack.
        var completedTarget = !IsKernel(frames[0]) && thread is not null && LeaveKernel(thread, frames, 0, draft);
        if (!completedTarget)
        {
            SetUserPart(draft, frames, 0);
        }
    }

    /// <summary>A StackKeyKernel (<paramref name="user"/> false) or StackKeyUser event at <paramref name="position"/>.</summary>
    public void OnKeyReference(in StackKeyReference reference, bool user, int processor, EtlThread? thread, EtlRecordPosition position)
    {
        var draft = Find(reference.ThreadId, reference.EventTimestamp, processor);
        if (draft is null)
        {
            OtherStacks++;
            return;
        }

        _firstReference.TryAdd(reference.Key, position);
        draft.HasFragment = true;
        if (!user)
        {
            if (draft.KernelFrames is null && draft.KernelKey == 0)
            {
                draft.KernelKey = reference.Key;
                Wait(_kernelWaiters, reference.Key, draft);
                WaitForUserPart(draft, thread);
            }

            return;
        }

        if (thread is null || !LeaveKernel(thread, null, reference.Key, draft))
        {
            SetUserPart(draft, null, reference.Key);
        }
    }

    /// <summary>A KeyDelete or KeyRundown event: the frames of a cached key.</summary>
    public void OnKeyDefinition(in StackKeyDefinition definition)
    {
        if (definition.Frames.Length == 0)
        {
            UnusedDefinitions++;
            return;
        }

        var frames = Intern(definition.Frames);
        var kernel = IsKernel(frames[^1]);
        if (!(kernel ? _kernelWaiters : _userWaiters).Remove(definition.Key, out var waiting))
        {
            UnusedDefinitions++;
            return;
        }

        if (!(kernel ? _userWaiters : _kernelWaiters).ContainsKey(definition.Key))
        {
            _firstReference.Remove(definition.Key);
        }

        foreach (var draft in waiting)
        {
            // Part of it is known now: later samples no longer merge into it.
            if (draft.Signature is { } signature)
            {
                _merging.Remove(signature);
                draft.Signature = null;
            }

            if (kernel)
            {
                draft.KernelFrames = frames;
                draft.KernelKey = 0;
            }
            else
            {
                draft.UserFrames = frames;
                draft.UserKey = 0;
            }

            if (draft.Sealed && draft.KernelKey == 0 && draft.UserKey == 0)
            {
                Emit(draft);
            }
        }
    }

    /// <summary>A thread seen before its Thread event is named: its events waiting in the kernel wait in <paramref name="named"/>.</summary>
    public void ThreadNamed(EtlThread unnamed, EtlThread named)
    {
        if (_threadsInKernel.Remove(unnamed))
        {
            named.InKernel.AddRange(unnamed.InKernel);
            unnamed.InKernel.Clear();
            _threadsInKernel.Add(named);
        }
    }

    /// <summary>A thread id is reused: events of the old thread still in the kernel will never get a user-mode part.</summary>
    public void ThreadEnded(EtlThread thread)
    {
        if (_threadsInKernel.Remove(thread))
        {
            LeaveKernel(thread, null, 0, null);
        }
    }

    /// <summary>
    /// The trace has ended: hands over every event still waiting, with the parts it has. A stack key still undefined
    /// is damage unless <paramref name="eventsLost"/> (the session lost events, so a definition may be among them).
    /// </summary>
    public void Finish(bool eventsLost)
    {
        if (!eventsLost && _kernelWaiters.Keys.Concat(_userWaiters.Keys).Select(k => (Key: k, At: _firstReference.GetValueOrDefault(k)))
                .OrderBy(k => k.At.BufferAt).ThenBy(k => k.At.ContentOffset).FirstOrDefault() is { Key: not 0 } undefined)
        {
            throw new EtlFormatException(undefined.At.Location, string.Create(CultureInfo.InvariantCulture,
                $"stack key 0x{undefined.Key:x} is used here but no KeyDelete or KeyRundown event defines it, though the trace says it lost no events: the file is damaged or spliced"));
        }

        foreach (var thread in _threadsInKernel.ToArray())
        {
            ThreadEnded(thread);
        }

        while (_arrivals.Count > 0)
        {
            var draft = _arrivals.Dequeue();
            Forget(draft);
            if (!draft.Sealed)
            {
                draft.UserKnown = true;
                Seal(draft);
            }
        }

        var waiting = new HashSet<EtlDraft>(_kernelWaiters.Values.SelectMany(s => s).Concat(_userWaiters.Values.SelectMany(s => s)));
        _kernelWaiters.Clear();
        _userWaiters.Clear();
        _merging.Clear();
        foreach (var draft in waiting.OrderBy(d => d.Timestamp))
        {
            if (draft.Sealed && !draft.Emitted)
            {
                MissingCachedFrames += draft.ContextSwitch is null ? draft.Count : 0;
                Emit(draft);
            }
        }
    }

    private void WaitForUserPart(EtlDraft draft, EtlThread? thread)
    {
        if (draft.KernelOnly || thread is null)
        {
            draft.UserKnown = true;
            Seal(draft);
            return;
        }

        thread.InKernel.Add(draft);
        _threadsInKernel.Add(thread);
    }

    // The thread returns to user mode: every event it logged in the kernel gets this user-mode part (frames, or a
    // key, or none when the thread ended). True when the target was among them.
    private bool LeaveKernel(EtlThread thread, ulong[]? frames, ulong key, EtlDraft? target)
    {
        var found = false;
        foreach (var draft in thread.InKernel)
        {
            found |= ReferenceEquals(draft, target);
            SetUserPart(draft, frames, key);
        }

        thread.InKernel.Clear();
        _threadsInKernel.Remove(thread);
        return found;
    }

    private void SetUserPart(EtlDraft draft, ulong[]? frames, ulong key)
    {
        if (draft.UserKnown)
        {
            return;
        }

        draft.UserKnown = true;
        draft.UserFrames = frames;
        draft.UserKey = key;
        if (key != 0)
        {
            Wait(_userWaiters, key, draft);
        }

        Seal(draft);
    }

    // Takes no more parts: handed over now, or waiting for cached frames (merged with its twin if one waits).
    private void Seal(EtlDraft draft)
    {
        if (draft.Sealed)
        {
            return;
        }

        draft.Sealed = true;
        Forget(draft);
        if (draft.KernelKey == 0 && draft.UserKey == 0)
        {
            Emit(draft);
            return;
        }

        if (draft.ContextSwitch is not null || draft.ProcessUnknown)
        {
            return;
        }

        var signature = new EtlPendingKey(draft.Process, draft.ThreadId, draft.KernelKey, draft.KernelFrames, draft.UserKey, draft.UserFrames,
            ImageEpoch(), SecondOf(draft.Timestamp));
        if (_merging.TryGetValue(signature, out var twin))
        {
            twin.Count += draft.Count;
            Unwait(_kernelWaiters, draft.KernelKey, draft);
            Unwait(_userWaiters, draft.UserKey, draft);
            draft.Emitted = true;
            Live--;
            return;
        }

        _merging[signature] = draft;
        draft.Signature = signature;
    }

    private void Emit(EtlDraft draft)
    {
        if (draft.Emitted)
        {
            return;
        }

        draft.Emitted = true;
        Live--;
        emit(draft);
    }

    private EtlDraft? Find(int thread, long timestamp, int processor) =>
        _recent.GetValueOrDefault(Key(thread, timestamp, processor)) is { Sealed: false } draft ? draft : null;

    private void Forget(EtlDraft draft)
    {
        var key = Key(draft.ThreadId, draft.Timestamp, draft.Processor);
        if (_recent.TryGetValue(key, out var known) && ReferenceEquals(known, draft))
        {
            _recent.Remove(key);
        }
    }

    private static (int, long, int) Key(int thread, long timestamp, int processor) => (thread, timestamp, thread == 0 ? processor : -1);

    private static void Wait(Dictionary<ulong, HashSet<EtlDraft>> table, ulong key, EtlDraft draft)
    {
        if (!table.TryGetValue(key, out var set))
        {
            table[key] = set = [];
        }

        set.Add(draft);
    }

    private static void Unwait(Dictionary<ulong, HashSet<EtlDraft>> table, ulong key, EtlDraft draft)
    {
        if (key != 0 && table.TryGetValue(key, out var set) && set.Remove(draft) && set.Count == 0)
        {
            table.Remove(key);
        }
    }

    private ulong[] Intern(ulong[] frames)
    {
        if (_fragments.TryGetValue(frames, out var known))
        {
            return known;
        }

        _fragments[frames] = frames;
        return frames;
    }

    private bool IsKernel(ulong address) => address >= kernelStart;
}
