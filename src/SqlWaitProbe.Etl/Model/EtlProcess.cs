namespace SqlWaitProbe.Etl.Model;

/// <summary>
/// One process of the trace, from its Process event to its end. Process ids are reused, so two processes of the
/// trace may share an id; each has its own images and JIT-compiled methods.
/// </summary>
public sealed class EtlProcess
{
    internal EtlProcess(int id, string imageFileName, long startTimestamp)
    {
        Id = id;
        ImageFileName = imageFileName;
        StartTimestamp = startTimestamp;
    }

    /// <summary>The process id.</summary>
    public int Id { get; }

    /// <summary>The executable's name as the kernel logged it (<c>sqlservr.exe</c>), or empty when the trace never named the process.</summary>
    public string ImageFileName { get; internal set; }

    /// <summary>The process's name as PerfView shows it: the executable without <c>.exe</c>, or <c>Process(PID)</c> when unnamed.</summary>
    public string Name => ImageFileName.Length == 0
        ? $"Process({Id})"
        : ImageFileName.EndsWith(".exe", StringComparison.OrdinalIgnoreCase) ? ImageFileName[..^4] : ImageFileName;

    /// <summary>Raw timestamp the process started, or <see cref="long.MinValue"/> for processes running when the trace began.</summary>
    public long StartTimestamp { get; internal set; }

    /// <summary>Raw timestamp the process ended, or <see cref="long.MaxValue"/>.</summary>
    public long EndTimestamp { get; internal set; } = long.MaxValue;

    /// <summary>The images the process loaded during the trace, unloaded ones included.</summary>
    internal EtlImageMap Images { get; } = new();

    /// <summary>Its JIT-compiled methods, when the trace names them.</summary>
    internal EtlMethodMap? Methods { get; set; }

    /// <inheritdoc />
    public override string ToString() => $"{Name} ({Id})";
}
