namespace SqlWaitProbe.Windows.Selection;

/// <summary>The CPU and OS-counter collectors a capture runs, and how the dry run describes them.</summary>
/// <param name="Stacks">The stack collector.</param>
/// <param name="Counters">The OS counter collector.</param>
/// <param name="EtwIntervalMSec">ETW profile interval in milliseconds, when <see cref="Stacks"/> is ETW.</param>
/// <param name="PerfHz">perf sampling frequency, when <see cref="Stacks"/> is perf.</param>
/// <param name="Description">The stacks line of the dry run, e.g. <c>CPU stacks: perf record -a -g -F 499</c>.</param>
/// <param name="CountersDescription">The counters line of the dry run.</param>
public sealed record CpuCollectorChoice(
    CpuStackSource Stacks,
    OsCounterSource Counters,
    double? EtwIntervalMSec,
    int? PerfHz,
    string Description,
    string CountersDescription);
