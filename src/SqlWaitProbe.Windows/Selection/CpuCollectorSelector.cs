using System.Globalization;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Windows.Pdh;

namespace SqlWaitProbe.Windows.Selection;

/// <summary>
/// Chooses the CPU stack and OS counter collectors: ETW and PDH on Windows, perf and <c>/proc</c> on Linux,
/// with <c>--cpu none|etw|perf</c> overriding the stack collector.
/// </summary>
public static class CpuCollectorSelector
{
    /// <summary>The answer to <c>--cpu etw</c> off Windows (exit code 2).</summary>
    public const string EtwNeedsWindows = "ETW CPU sampling needs Windows; on Linux use --cpu perf";

    /// <summary>The answer to <c>--cpu perf</c> on Windows (exit code 2).</summary>
    public const string PerfNeedsLinux = "perf CPU sampling needs Linux; on Windows use --cpu etw";

    /// <summary>perf's default frequency: a prime, so sampling does not run in lockstep with periodic work.</summary>
    public const int DefaultPerfHz = 499;

    /// <summary>ETW's default profile interval, as PerfView uses.</summary>
    public const double DefaultEtwIntervalMSec = 1.0;

    /// <summary>Shortest profile interval Windows accepts.</summary>
    public const double MinEtwIntervalMSec = 0.125;

    /// <summary>Longest profile interval Windows accepts.</summary>
    public const double MaxEtwIntervalMSec = 1000.0;

    /// <summary>Selects for the machine this runs on. <paramref name="sampleHz"/> is null when <c>--sample-hz</c> was not given.</summary>
    public static CpuCollectorChoice ForThisMachine(string? cpuOption, int? sampleHz) =>
        Select(cpuOption, sampleHz, OperatingSystem.IsWindows());

    /// <summary>Selects for Windows (<paramref name="isWindows"/>) or Linux. Throws <see cref="BadInputException"/> for a collector the OS lacks.</summary>
    public static CpuCollectorChoice Select(string? cpuOption, int? sampleHz, bool isWindows)
    {
        if (sampleHz is <= 0)
        {
            throw new BadInputException($"--sample-hz must be a positive number of samples per second (got {sampleHz.Value.ToString(CultureInfo.InvariantCulture)})");
        }

        var requested = cpuOption?.Trim().ToLowerInvariant();
        var stacks = requested switch
        {
            null or "" => isWindows ? CpuStackSource.Etw : CpuStackSource.Perf,
            "none" => CpuStackSource.None,
            "etw" => CpuStackSource.Etw,
            "perf" => CpuStackSource.Perf,
            _ => throw new BadInputException($"--cpu must be none, etw or perf (got '{cpuOption}')"),
        };

        if (stacks == CpuStackSource.Etw && !isWindows)
        {
            throw new BadInputException(EtwNeedsWindows);
        }

        if (stacks == CpuStackSource.Perf && isWindows)
        {
            throw new BadInputException(PerfNeedsLinux);
        }

        var counters = isWindows ? OsCounterSource.Pdh : OsCounterSource.Proc;
        var countersLine = isWindows
            ? $"OS counters: PDH, {PdhCounterSet.Default.Count.ToString(CultureInfo.InvariantCulture)} counters every second (pdh.csv, series.csv)"
            : "OS counters: /proc every second (series.csv)";

        return stacks switch
        {
            CpuStackSource.Etw => EtwChoice(EtwIntervalMSec(sampleHz), countersLine),
            CpuStackSource.Perf => new CpuCollectorChoice(
                stacks, counters, null, sampleHz ?? DefaultPerfHz,
                $"CPU stacks: perf record -a -g -F {(sampleHz ?? DefaultPerfHz).ToString(CultureInfo.InvariantCulture)}", countersLine),
            _ => new CpuCollectorChoice(stacks, counters, null, null, "CPU stacks: none (--cpu none)", countersLine),
        };
    }

    /// <summary>
    /// The ETW profile interval for <c>--sample-hz</c>: 1000 ÷ Hz milliseconds, kept within what Windows accepts
    /// (0.125 ms to 1 s); 1 ms when no rate was given.
    /// </summary>
    public static double EtwIntervalMSec(int? sampleHz)
    {
        if (sampleHz is null)
        {
            return DefaultEtwIntervalMSec;
        }

        if (sampleHz <= 0)
        {
            throw new BadInputException("--sample-hz must be a positive number of samples per second");
        }

        return Math.Clamp(1000.0 / sampleHz.Value, MinEtwIntervalMSec, MaxEtwIntervalMSec);
    }

    private static CpuCollectorChoice EtwChoice(double intervalMSec, string countersLine) =>
        new(CpuStackSource.Etw, OsCounterSource.Pdh, intervalMSec, null,
            $"CPU stacks: ETW kernel sampling at {intervalMSec.ToString("0.0##", CultureInfo.InvariantCulture)} ms (TraceEvent)", countersLine);
}
