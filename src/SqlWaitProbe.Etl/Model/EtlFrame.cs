namespace SqlWaitProbe.Etl.Model;

/// <summary>One frame of a stack: the address, the image that held it at the time, and whether it is kernel code.</summary>
/// <param name="Address">The instruction pointer.</param>
/// <param name="Image">The image mapped there when the event happened, or null (JIT-compiled or otherwise generated code).</param>
/// <param name="Kernel">True for an address in kernel space.</param>
public readonly record struct EtlFrame(ulong Address, EtlImage? Image, bool Kernel)
{
    /// <summary>The offset of the address in its image (its RVA), or the address itself outside any image.</summary>
    public ulong Rva => Image is null ? Address : Address - Image.Base;
}
