using SqlWaitProbe.Etl.Model;

namespace SqlWaitProbe.Windows.Etw;

/// <summary>
/// Turns the .etl reader's frames into the ETW mapping's frames: an image's path and, when known, the function at
/// the frame's offset (from symbols); code in no image is <c>[jit]</c>, or the managed module and method a .NET runtime
/// event names; kernel code in no image keeps no module.
/// </summary>
/// <param name="functionName">Function at an image-relative address (symbols), or null for none.</param>
/// <param name="jitMethod">The JIT-compiled method at an address of a process, or null for none.</param>
public sealed class EtlFrameNaming(Func<EtlImage, ulong, string?>? functionName = null, Func<EtlProcess, ulong, EtlManagedMethod?>? jitMethod = null)
{
    /// <summary>The module name of JIT-compiled code no event names.</summary>
    public const string Jit = "[jit]";

    /// <summary>Names by module alone.</summary>
    public static EtlFrameNaming ModulesOnly { get; } = new();

    /// <summary>The frame of <paramref name="frame"/>, an address of <paramref name="process"/>.</summary>
    public EtwFrame Frame(EtlFrame frame, EtlProcess process)
    {
        ArgumentNullException.ThrowIfNull(process);
        if (frame.Image is { } image)
        {
            return new EtwFrame(image.FilePath, functionName?.Invoke(image, frame.Rva), frame.Address, frame.Kernel);
        }

        if (frame.Kernel)
        {
            return new EtwFrame(string.Empty, null, frame.Address, IsKernel: true);
        }

        var method = jitMethod?.Invoke(process, frame.Address);
        return new EtwFrame(method is { ModuleFile.Length: > 0 } ? method.ModuleFile : Jit, method?.Name, frame.Address, IsKernel: false, IsJit: true);
    }

    /// <summary>The frames of a stack, leaf first.</summary>
    public EtwFrame[] Frames(IReadOnlyList<EtlFrame> leafFirst, EtlProcess process)
    {
        ArgumentNullException.ThrowIfNull(leafFirst);
        var frames = new EtwFrame[leafFirst.Count];
        for (var i = 0; i < frames.Length; i++)
        {
            frames[i] = Frame(leafFirst[i], process);
        }

        return frames;
    }
}
