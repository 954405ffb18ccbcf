using System.Globalization;
using SqlWaitProbe.Core.Options;

namespace SqlWaitProbe.Capture;

/// <summary>The options of the capture session itself: the bundle folder, confirmations, limits and the analysis at the end.</summary>
public static class SessionOptions
{
    /// <summary><c>--output</c>: bundle folder.</summary>
    public static readonly OptionSpec<DirectoryInfo?> Output = new("--output", "-o")
    {
        Help = "Bundle folder to write (default: ./probe-runs/<time>-<workload>).",
        HelpOrder = 140,
    };

    /// <summary><c>--force</c>: capture into a folder that holds other files.</summary>
    public static readonly OptionSpec<bool> Force = new("--force")
    {
        Help = "Capture into an -o folder that is not empty and is not a bundle; its files stay as they are and are never listed in the manifest or packed (an existing bundle is never overwritten).",
        HelpOrder = 150,
    };

    /// <summary><c>--yes</c>.</summary>
    public static readonly OptionSpec<bool> Yes = new("--yes", "-y")
    {
        Help = "Answer yes to confirmations.",
        HelpOrder = 290,
    };

    /// <summary><c>--max-duration</c>: hard cap on the whole capture.</summary>
    public static readonly OptionSpec<string> MaxDuration = new("--max-duration")
    {
        Help = "Stop the whole capture (as interrupted) after this long.",
        HelpOrder = 300,
        Default = () => "2h",
    };

    /// <summary><c>--min-free-disk-mb</c>.</summary>
    public static readonly OptionSpec<int> MinFreeDiskMegabytes = new("--min-free-disk-mb")
    {
        Help = "Stop the capture (as interrupted, reason disk) when free disk falls below this many MB.",
        HelpOrder = 340,
        Default = () => 512,
        Check = mb => mb < 0 ? $"--min-free-disk-mb must be 0 or more MB (got {mb.ToString(CultureInfo.InvariantCulture)})" : null,
    };

    /// <summary><c>--no-analyze</c>.</summary>
    public static readonly OptionSpec<bool> NoAnalyze = new("--no-analyze")
    {
        Help = "Do not run the analysis into BUNDLE/report at the end.",
        HelpOrder = 370,
    };

    /// <summary>The options above, in declaration order.</summary>
    public static IReadOnlyList<IOptionSpec> All { get; } = [Output, Force, Yes, MaxDuration, MinFreeDiskMegabytes, NoAnalyze];
}
