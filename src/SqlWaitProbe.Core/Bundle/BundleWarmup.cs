namespace SqlWaitProbe.Core.Bundle;

/// <summary>
/// The warm-up a capture ran on one session before its first phase (<c>--warmup</c>): caches and plans warmed with no
/// collector running; its executions are in no phase and no figure.
/// </summary>
public sealed record BundleWarmup
{
    /// <summary>Executions asked for; null when the warm-up ran for a time.</summary>
    public long? Requested { get; init; }

    /// <summary>Seconds asked for; null when the warm-up ran a number of executions.</summary>
    public double? RequestedSeconds { get; init; }

    /// <summary>Executions the warm-up ran (failed ones included).</summary>
    public long Executions { get; init; }

    /// <summary>Of <see cref="Executions"/>, those that failed.</summary>
    public long Errors { get; init; }

    /// <summary>How long the warm-up took, in seconds.</summary>
    public double Seconds { get; init; }

    /// <summary>When it started (UTC).</summary>
    public DateTime StartUtc { get; init; }
}
