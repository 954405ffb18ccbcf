using System.Globalization;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Etl.Model;

namespace SqlWaitProbe.Etl.Profiles;

/// <summary>
/// Turns a trace's samples into the probe's stack model, weight = samples. Stacks are kept by address while the
/// trace is read and named at the end, when the rundown events have named every JIT-compiled method:
/// <c>module!function</c> where the trace (or <see cref="EtlProfileOptions.FunctionName"/>) names the function,
/// otherwise the module alone (<c>module!0xRVA</c> with <see cref="EtlProfileOptions.Addresses"/>); code in no image
/// is <c>[jit]</c> unless a .NET method event names it; kernel frames are marked as the perf path marks them.
/// </summary>
public sealed class EtlProfileBuilder(EtlTraceReader reader, EtlProfileOptions? options = null) : IEtlSink
{
    private const string Jit = "[jit]";
    private const string Unknown = "[unknown]";

    private readonly EtlProfileOptions _options = options ?? new EtlProfileOptions();
    private readonly Dictionary<(object? Owner, ulong Offset), int> _frameIds = [];
    private readonly List<(object? Owner, ulong Offset, bool Kernel)> _frames = [];
    private readonly StackTable _stacks = new();
    private readonly Dictionary<(string Process, int Stack), long> _weights = [];
    private readonly Dictionary<string, long> _byProcess = new(StringComparer.Ordinal);
    private readonly int? _pid = int.TryParse(options?.Process, NumberStyles.None, CultureInfo.InvariantCulture, out var pid) ? pid : null;

    /// <summary>Samples handed over (Idle ones are never handed over).</summary>
    public long Samples { get; private set; }

    /// <summary>Samples of the selected process (all of them without <see cref="EtlProfileOptions.Process"/>).</summary>
    public long SelectedSamples { get; private set; }

    /// <summary>Samples per process name, every process, heaviest first.</summary>
    public IReadOnlyList<(string Process, long Samples)> ProcessSamples =>
        _byProcess.OrderByDescending(p => p.Value).ThenBy(p => p.Key, StringComparer.Ordinal).Select(p => (p.Key, p.Value)).ToArray();

    /// <inheritdoc />
    public void Sample(EtlStackSample sample)
    {
        ArgumentNullException.ThrowIfNull(sample);
        Samples += sample.Count;
        var process = ProcessName(sample.Process);
        _byProcess[process] = _byProcess.GetValueOrDefault(process) + sample.Count;
        if (!Selected(sample.Process))
        {
            return;
        }

        SelectedSamples += sample.Count;
        var stack = StackTable.Empty;
        for (var i = sample.FramesLeafFirst.Count - 1; i >= 0; i--)
        {
            stack = _stacks.Push(stack, FrameId(sample.FramesLeafFirst[i], sample.Process));
        }

        var key = (process, stack);
        _weights[key] = _weights.GetValueOrDefault(key) + sample.Count;
    }

    /// <summary>The named stacks of the selected samples (call once the trace is read).</summary>
    public StackProfile Build()
    {
        var profile = new StackProfile();
        var names = new int[_frames.Count];
        for (var i = 0; i < names.Length; i++)
        {
            names[i] = profile.Frames.Intern(Name(_frames[i]));
        }

        // Callers precede callees in the address-level table, so one pass names every stack.
        var named = new int[_stacks.Count];
        for (var s = 1; s < named.Length; s++)
        {
            var caller = named[_stacks.CallerOf(s)];
            var frame = names[_stacks.LeafFrameOf(s)];
            named[s] = !_options.Addresses && caller != StackTable.Empty && profile.Stacks.LeafFrameOf(caller) == frame
                ? caller
                : profile.Stacks.Push(caller, frame);
        }

        foreach (var ((process, stack), weight) in _weights)
        {
            profile.Add(process, named[stack], weight);
        }

        return profile;
    }

    private bool Selected(EtlProcess process) =>
        _options.Process is null || (_pid is { } pid ? process.Id == pid : string.Equals(process.Name, _options.Process, StringComparison.OrdinalIgnoreCase));

    private string ProcessName(EtlProcess process) =>
        _options.ProcessIds ? string.Create(CultureInfo.InvariantCulture, $"{process.Name}-{process.Id}") : process.Name;

    // Frames are kept by image and offset (an image's code), by process and address (code outside images, which the
    // process's own JIT names), or by address (kernel code outside images).
    private int FrameId(EtlFrame frame, EtlProcess process)
    {
        var key = frame.Image is { } image ? ((object?)image, frame.Address - image.Base) : frame.Kernel ? (null, frame.Address) : (process, frame.Address);
        if (!_frameIds.TryGetValue(key, out var id))
        {
            id = _frames.Count;
            _frames.Add((key.Item1, key.Item2, frame.Kernel));
            _frameIds[key] = id;
        }

        return id;
    }

    private Frame Name((object? Owner, ulong Offset, bool Kernel) frame)
    {
        var kind = frame.Kernel ? FrameKind.Kernel : FrameKind.User;
        switch (frame.Owner)
        {
            case EtlImage image:
                var module = EtlModuleNames.ModuleName(image.FilePath);
                if (_options.FunctionName?.Invoke(image, frame.Offset) is { Length: > 0 } function)
                {
                    return new Frame(module, function, kind);
                }

                return new Frame(module, _options.Addresses ? Hex(frame.Offset) : module, kind);
            case EtlProcess process:
                if (reader.FindMethod(process, frame.Offset) is { } method)
                {
                    return new Frame(method.ModuleFile.Length > 0 ? EtlModuleNames.ModuleName(method.ModuleFile) : Jit, method.Name, FrameKind.Jit);
                }

                return new Frame(Jit, _options.Addresses ? Hex(frame.Offset) : Jit, FrameKind.Jit);
            default:
                return new Frame(string.Empty, _options.Addresses ? Hex(frame.Offset) : Unknown, kind);
        }
    }

    private static string Hex(ulong value) => "0x" + value.ToString("x", CultureInfo.InvariantCulture);
}
