namespace SqlWaitProbe.Etl.Model;

/// <summary>A JIT-compiled .NET method the trace names (CLR MethodLoadVerbose or rundown events).</summary>
/// <param name="Name">Namespace-qualified name, e.g. <c>System.Collections.Generic.List`1[System.__Canon].Add</c>.</param>
/// <param name="ModuleFile">The managed module's file name without folder (<c>mscorlib.dll</c>), or empty when unknown.</param>
/// <param name="Start">First address of its code.</param>
/// <param name="Size">Bytes of its code.</param>
public sealed record EtlManagedMethod(string Name, string ModuleFile, ulong Start, uint Size);
