using System.Globalization;
using SqlWaitProbe.Capture.Os;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Options;

namespace SqlWaitProbe.Capture;

/// <summary>
/// A validated capture for any engine: the engine (which validated its own options), the phases, the bundle
/// folder, the OS collector options and the limits. Every bad value is rejected by <see cref="Build"/>, before
/// anything starts.
/// </summary>
public sealed record CaptureRequest
{
    /// <summary>The engine, created and validated from the same arguments, nothing started.</summary>
    public required IEngine Engine { get; init; }

    /// <summary>The phases and their length.</summary>
    public required CapturePlan Plan { get; init; }

    /// <summary>Bundle folder.</summary>
    public required string Output { get; init; }

    /// <summary>CPU collector, sampling rate and their limits.</summary>
    public OsCollectorOptions Os { get; init; } = new();

    /// <summary>Hard cap on the whole capture.</summary>
    public TimeSpan MaxDuration { get; init; } = TimeSpan.FromHours(2);

    /// <summary>Stop when free disk under the bundle falls below this.</summary>
    public long MinFreeDiskMegabytes { get; init; } = 512;

    /// <summary>Capture into a non-empty folder that is not a bundle (its files are left as they are and never listed).</summary>
    public bool Force { get; init; }

    /// <summary>Skip analysis at the end.</summary>
    public bool NoAnalyze { get; init; }

    /// <summary>The options as given, secrets removed, for the manifest.</summary>
    public required IReadOnlyDictionary<string, string> Options { get; init; }

    /// <summary>Workload name for logs, the manifest and the default folder: <c>attach</c> in attach mode.</summary>
    public string WorkloadName => Engine.Workload?.Name ?? PhaseNames.Attach;

    /// <summary>Validates the engine-neutral options of <paramref name="arguments"/> for <paramref name="engine"/>; throws <see cref="BadInputException"/>.</summary>
    public static CaptureRequest Build(CaptureArguments arguments, IEngine engine)
    {
        if (arguments.Duration is not null && arguments.Iterations is not null)
        {
            throw new BadInputException("give --duration or --iterations, not both");
        }

        if (engine.Workload is null && arguments.Iterations is not null)
        {
            throw new BadInputException("attach mode runs no workload: give --duration, not --iterations");
        }

        if (arguments.Iterations is <= 0)
        {
            throw new BadInputException("--iterations must be at least 1");
        }

        if (arguments.MinFreeDiskMegabytes < 0)
        {
            throw new BadInputException($"--min-free-disk-mb must be 0 or more MB (got {arguments.MinFreeDiskMegabytes.ToString(CultureInfo.InvariantCulture)})");
        }

        TimeSpan? duration = arguments.Duration is null ? null : DurationParser.Parse(arguments.Duration);
        var plan = engine.Workload is null
            ? CapturePlan.ForAttach(duration ?? TimeSpan.FromSeconds(30))
            : CapturePlan.Build(ThreadsParser.Parse(arguments.Threads), !arguments.NoBaseline, duration, arguments.Iterations);
        var os = new OsCollectorOptions
        {
            Cpu = arguments.Cpu?.Trim().ToLowerInvariant(),
            OffCpu = arguments.OffCpu?.Trim().ToLowerInvariant() ?? OsCollectorOptions.DefaultOffCpu,
            SampleHz = arguments.SampleHz,
            SampleHzGiven = arguments.IsGiven("--sample-hz"),
            MaxPerfMegabytes = arguments.MaxPerfMegabytes,
            CallGraph = arguments.CallGraph,
            PhaseSeconds = plan.Duration?.TotalSeconds,
            Symbols = arguments.Symbols,
            Offline = arguments.Offline,
        };
        if (OsCollectorSelector.Validate(os, OperatingSystem.IsWindows()) is { } error)
        {
            throw new BadInputException(error);
        }

        var name = (engine.Workload?.Name ?? PhaseNames.Attach).Replace(':', '-');
        return new CaptureRequest
        {
            Engine = engine,
            Plan = plan,
            Output = arguments.Output
                ?? Path.GetFullPath(Path.Combine("probe-runs", DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture) + "-" + name)),
            Os = os,
            MaxDuration = DurationParser.Parse(arguments.MaxDuration, "--max-duration"),
            MinFreeDiskMegabytes = arguments.MinFreeDiskMegabytes,
            NoAnalyze = arguments.NoAnalyze,
            Force = arguments.Force,
            Options = arguments.AsGiven(engine.RedactOption),
        };
    }
}
