using System.Globalization;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Core.Runtime;

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

    /// <summary>The options as the user typed them, which the OS collectors read.</summary>
    public OptionValues Values { get; init; } = OptionValues.None;

    /// <summary>The OS collectors this machine can run.</summary>
    public required OsCollectorCatalog OsCollectors { get; init; }

    /// <summary>What the capture owns on this machine (run folder, child processes); the engine shares it.</summary>
    public required RunScope Scope { get; init; }

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

    /// <summary>Ends an attach window early, complete (not interrupted): a watch ends each window when it knows how much of it to keep.</summary>
    public CancellationToken EndWindow { get; init; }

    /// <summary>
    /// False when the caller handles Ctrl+C and SIGTERM itself and cancels the capture (a watch, which runs several
    /// windows at once and prints one line per signal); the capture then records <c>ctrl-c</c> as the reason.
    /// </summary>
    public bool HandlesSignals { get; init; } = true;

    /// <summary>Why the caller cancelled the capture (<c>ctrl-c</c>, <c>sigterm</c>) when it handles signals itself.</summary>
    public Func<string?>? StopReason { get; init; }

    /// <summary>The watch's hold on this capture when it is one of a watch's ring windows (sampling pace, thrown away); null otherwise.</summary>
    public RingWindow? Ring { get; init; }

    /// <summary>What fired a watch's dump, read when the capture ends and written into its manifest; null for a capture.</summary>
    public Func<BundleTrigger?>? Trigger { get; init; }

    /// <summary>The experiment variant this capture is (<c>probe experiment</c>), recorded in the manifest; null for a capture of its own.</summary>
    public BundleExperiment? Experiment { get; init; }

    /// <summary>Workload name for logs, the manifest and the default folder: <c>attach</c> in attach mode.</summary>
    public string WorkloadName => Engine.Workload?.Name ?? PhaseNames.Attach;

    /// <summary>
    /// Validates the engine-neutral options of <paramref name="options"/> for <paramref name="engine"/>, the collectors'
    /// included; throws <see cref="BadInputException"/>. <paramref name="scope"/> is the one the engine was made with.
    /// </summary>
    public static CaptureRequest Build(OptionValues options, IEngine engine, OsCollectorCatalog collectors, RunScope scope)
    {
        var durationText = options.Get(CommonOptions.Duration);
        var iterations = options.Get(CommonOptions.Iterations);
        var iterationsTotal = options.Get(CommonOptions.IterationsTotal);
        var warmupText = options.Get(CommonOptions.Warmup);
        if (durationText is not null && iterations is not null)
        {
            throw new BadInputException("give --duration or --iterations, not both");
        }

        if (iterationsTotal is not null && (iterations is not null || durationText is not null))
        {
            throw new BadInputException($"give --iterations-total alone: it fixes each phase's work, which {(iterations is not null ? "--iterations" : "--duration")} also does");
        }

        if (engine.Workload is null && (iterations is not null || iterationsTotal is not null || warmupText is not null))
        {
            throw new BadInputException($"attach mode runs no workload: give --duration, not {(iterations is not null ? "--iterations" : iterationsTotal is not null ? "--iterations-total" : "--warmup")}");
        }

        if (iterations is <= 0)
        {
            throw new BadInputException("--iterations must be at least 1");
        }

        if (iterationsTotal is <= 0 or > 1_000_000_000)
        {
            throw new BadInputException("--iterations-total must be 1 to 1000000000");
        }

        var (warmupExecutions, warmupTime) = ParseWarmup(warmupText);

        var finishWithinText = options.Get(CommonOptions.FinishWithin);
        if (finishWithinText is not null && engine.Workload is null)
        {
            throw new BadInputException("attach mode runs no workload: --finish-within applies to phases of a workload");
        }

        if (finishWithinText is not null && (iterations is not null || iterationsTotal is not null))
        {
            throw new BadInputException("--finish-within applies to phases of a --duration; a phase of --iterations ends when every execution has finished");
        }

        var finishWithin = finishWithinText is null ? CapturePlan.DefaultFinishWithin : DurationParser.Parse(finishWithinText, "--finish-within", allowZero: true);
        var minFreeDisk = options.Get(SessionOptions.MinFreeDiskMegabytes);
        TimeSpan? duration = durationText is null ? null : DurationParser.Parse(durationText);
        var plan = engine.Workload is null
            ? CapturePlan.ForAttach(duration ?? TimeSpan.FromSeconds(30))
            : CapturePlan.Build(ThreadsParser.Parse(options.Get(CommonOptions.Threads)), !options.Get(CommonOptions.NoBaseline), duration, iterations, iterationsTotal)
                with { WarmupExecutions = warmupExecutions, WarmupDuration = warmupTime, FinishWithin = finishWithin };
        // Before the collectors' own checks, as always: the sampling rate and --offcpu, which every platform reads.
        options.Get(CpuOptions.SampleHz);
        CpuOptions.OffCpuOn(options);
        if (collectors.Validate(options) is { } error)
        {
            throw new BadInputException(error);
        }

        var name = (engine.Workload?.Name ?? PhaseNames.Attach).Replace(':', '-');
        return new CaptureRequest
        {
            Engine = engine,
            Plan = plan,
            Output = options.Get(SessionOptions.Output)?.FullName
                ?? Path.GetFullPath(Path.Combine("probe-runs", DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture) + "-" + name)),
            Values = options,
            OsCollectors = collectors,
            Scope = scope,
            MaxDuration = DurationParser.Parse(options.Get(SessionOptions.MaxDuration), "--max-duration"),
            MinFreeDiskMegabytes = minFreeDisk,
            NoAnalyze = options.Get(SessionOptions.NoAnalyze),
            Force = options.Get(SessionOptions.Force),
            Options = options.AsGiven(engine.RedactOption),
        };
    }

    /// <summary><c>--warmup</c>: a count of executions (0 to 1,000,000) or a duration; none when not given or 0.</summary>
    private static (long Executions, TimeSpan? Time) ParseWarmup(string? text)
    {
        if (string.IsNullOrWhiteSpace(text))
        {
            return (0, null);
        }

        if (long.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var count))
        {
            return count <= 1_000_000 ? (count, null) : throw new BadInputException("--warmup must be 0 to 1000000 executions or a time such as 5s");
        }

        var time = DurationParser.Parse(text, "--warmup");
        return (0, time);
    }
}
