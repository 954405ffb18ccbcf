namespace SqlWaitProbe.Windows.Etw;

/// <summary>One frame of a recorded ETW stack.</summary>
/// <param name="ModulePath">Image path or name (<c>C:\Windows\system32\ntoskrnl.exe</c>, <c>\SystemRoot\system32\drivers\x.sys</c>, <c>sqldk.dll</c>); <c>[jit]</c> or a managed module's name for JIT-compiled code; empty when the address is in no known image.</param>
/// <param name="Method">Resolved function name, or null (or empty) when symbols did not resolve it.</param>
/// <param name="Address">The instruction address.</param>
/// <param name="IsKernel">True when the source knows the address is in kernel space.</param>
/// <param name="IsJit">True for code the .NET JIT compiled (no image).</param>
public readonly record struct EtwFrame(string ModulePath, string? Method, ulong Address, bool IsKernel, bool IsJit = false);
