using System.Globalization;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Core.Watch;

namespace SqlWaitProbe.Capture.Watch;

/// <summary>The options of <c>probe watch</c> of its own; the attach filters, server and collector options are the capture's.</summary>
public static class WatchOptions
{
    /// <summary><c>--keep</c>.</summary>
    public static readonly OptionSpec<string> Keep = new("--keep")
    {
        Help = "How much of the time before a trigger every dump holds at least (e.g. 2m); a window of the collectors opens every --keep.",
        HelpOrder = 205,
        Default = () => "2m",
    };

    /// <summary><c>--after</c>.</summary>
    public static readonly OptionSpec<string> After = new("--after")
    {
        Help = "How long to go on capturing after a trigger before the dump is written (e.g. 30s).",
        HelpOrder = 206,
        Default = () => "30s",
    };

    /// <summary><c>--trigger</c>, repeatable.</summary>
    public static readonly OptionSpec<string[]> Trigger = new("--trigger")
    {
        Help = "When to dump: " + TriggerSpec.Forms + " (shares over the last 10 s; wait names by prefix, any case: PostgreSQL Class or Class:Event, SQL Server wait_type). Repeat for several; the first above its threshold fires.",
        HelpOrder = 207,
        HelpName = "spec",
    };

    /// <summary><c>--max-dumps</c>.</summary>
    public static readonly OptionSpec<int> MaxDumps = new("--max-dumps")
    {
        Help = "End the watch after this many dumps.",
        HelpOrder = 208,
        Default = () => 5,
        Check = n => n < 1 ? $"--max-dumps must be 1 or more (got {n.ToString(CultureInfo.InvariantCulture)})" : null,
    };

    /// <summary><c>--cool-down</c>.</summary>
    public static readonly OptionSpec<string> CoolDown = new("--cool-down")
    {
        Help = "After a dump, triggers within this long of its trigger are not dumped again (a dump asked with --dump always is).",
        HelpOrder = 209,
        Default = () => "5m",
    };

    /// <summary><c>--disk-budget-mb</c>.</summary>
    public static readonly OptionSpec<int> DiskBudgetMegabytes = new("--disk-budget-mb")
    {
        Help = "No new dump once the output folder (dumps and the windows being captured) holds this many MB.",
        HelpOrder = 211,
        Default = () => 2048,
        Check = mb => mb < 1 ? $"--disk-budget-mb must be 1 or more MB (got {mb.ToString(CultureInfo.InvariantCulture)})" : null,
    };

    /// <summary><c>--dump</c>: ask the watch running on a folder for a dump now.</summary>
    public static readonly OptionSpec<DirectoryInfo?> Dump = new("--dump")
    {
        Help = "Ask the watch writing into this folder (its -o) for a dump now, from another shell, and return.",
        HelpOrder = 212,
        HelpName = "dir",
    };

    /// <summary>The options above, in declaration order.</summary>
    public static IReadOnlyList<IOptionSpec> All { get; } = [Keep, After, Trigger, MaxDumps, CoolDown, DiskBudgetMegabytes, Dump];

    /// <summary>
    /// The watch's settings from <paramref name="options"/>, each trigger parsed and checked by <paramref name="engine"/>;
    /// throws <see cref="BadInputException"/> on the first bad value.
    /// </summary>
    public static WatchSettings Read(OptionValues options, IWatchableEngine engine, string output)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(engine);
        var triggers = (options.Get(Trigger) ?? []).Select(TriggerSpec.Parse).ToArray();
        foreach (var t in triggers)
        {
            if (engine.CheckTrigger(t) is { } error)
            {
                throw new BadInputException(error);
            }
        }

        var keep = DurationParser.Parse(options.Get(Keep), "--keep");
        var after = DurationParser.Parse(options.Get(After), "--after");
        if (keep < TimeSpan.FromSeconds(5))
        {
            throw new BadInputException($"--keep {options.Get(Keep)} is shorter than 5 s: a window needs a few seconds to start its collectors");
        }

        return new WatchSettings
        {
            Output = output,
            Keep = keep,
            After = after,
            Triggers = triggers,
            MaxDumps = options.Get(MaxDumps),
            CoolDown = DurationParser.Parse(options.Get(CoolDown), "--cool-down"),
            DiskBudgetMegabytes = options.Get(DiskBudgetMegabytes),
        };
    }
}
