namespace SqlWaitProbe.Etl.Model;

/// <summary>
/// What reading one trace may cost. A trace over a limit is refused as bad input naming the limit, so a damaged or
/// hostile file can neither exhaust memory nor run without end; real traces stay far below each one.
/// </summary>
public sealed record EtlLimits
{
    /// <summary>Largest buffer, as logged, in bytes (ETW's own buffers are at most a few MiB).</summary>
    public int BufferBytes { get; init; } = 16 << 20;

    /// <summary>
    /// Most bytes the time-ordered merge holds at once: one decompressed buffer per processor that logged, so
    /// processors × buffer size.
    /// </summary>
    public long MergeBytes { get; init; } = 1L << 30;

    /// <summary>
    /// Most entries of the maps the reader keeps (processes, threads, images, methods, stack keys and samples waiting
    /// for their stacks), each counted on its own.
    /// </summary>
    public int MapEntries { get; init; } = 4_000_000;

    /// <summary>
    /// Whether a stack key no event defines, in a trace that says it lost nothing, is damage (exit 2). True for a trace
    /// from elsewhere; a trace the probe just recorded keeps such a stack partial instead.
    /// </summary>
    public bool UndefinedStackKeysAreDamage { get; init; } = true;

    /// <summary>The limits for a trace from elsewhere: room for any real trace, a bound on a hostile one.</summary>
    public static EtlLimits Default { get; } = new();
}
