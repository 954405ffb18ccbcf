using SqlWaitProbe.Core.Options;

namespace SqlWaitProbe.Core.Collectors;

/// <summary>The CPU sampling options every platform's stack collectors read.</summary>
public static class CpuOptions
{
    /// <summary>perf's default frequency: a prime, so sampling does not run in lockstep with periodic work.</summary>
    public const int DefaultHz = 499;

    /// <summary>
    /// Off-CPU stacks unless <c>--offcpu</c> says otherwise: off until their cost is shown to keep throughput at or
    /// above 0.97 (docs/performance.md); the report recommends them when unaccounted time is large.
    /// </summary>
    public const string DefaultOffCpu = "off";

    /// <summary><c>--cpu none</c>: no CPU stacks on any platform.</summary>
    public const string NoStacks = "none";

    /// <summary><c>--sample-hz</c>.</summary>
    public static readonly OptionSpec<int> SampleHz = new("--sample-hz")
    {
        Help = "CPU sampling frequency in Hz (perf -F, default 499; ETW interval = 1000/Hz ms, default 1 ms as PerfView).",
        HelpOrder = 110,
        Default = () => DefaultHz,
        Check = hz => hz is < 1 or > 50_000 ? "--sample-hz must be from 1 to 50000" : null,
    };

    /// <summary><c>--cpu</c>: none, perf or etw.</summary>
    public static readonly OptionSpec<string?> Cpu = new("--cpu")
    {
        Help = "CPU stack collector: perf, etw or none (default: perf on Linux, etw on Windows).",
        HelpOrder = 120,
        Completions = () => ["perf", "etw", NoStacks],
    };

    /// <summary><c>--offcpu</c>: on or off.</summary>
    public static readonly OptionSpec<string?> OffCpu = new("--offcpu")
    {
        Help = "Off-CPU stacks of the sessions' server processes (Linux: perf sched_switch with stacks; Windows: ETW CSwitch and ReadyThread with stacks): on or off (default: " + DefaultOffCpu + ").",
        HelpOrder = 130,
        Check = value => Normal(value) is "on" or "off" ? null : $"--offcpu must be on or off (got '{Normal(value)}')",
    };

    /// <summary><c>--offcpu</c> as <c>on</c> or <c>off</c>, its default when not given.</summary>
    public static bool OffCpuOn(OptionValues options) => Normal(options.Get(OffCpu)) == "on";

    /// <summary><c>--cpu</c> trimmed and in lower case; null when not given.</summary>
    public static string? CpuChoice(OptionValues options) => options.Get(Cpu)?.Trim().ToLowerInvariant();

    private static string Normal(string? offCpu) => offCpu?.Trim().ToLowerInvariant() ?? DefaultOffCpu;

    /// <summary>The options above, in declaration order.</summary>
    public static IReadOnlyList<IOptionSpec> All { get; } = [SampleHz, Cpu, OffCpu];
}
