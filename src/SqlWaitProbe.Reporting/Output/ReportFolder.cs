using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Files;

namespace SqlWaitProbe.Reporting.Output;

/// <summary>
/// The folder a report is written into, shared by its exporters: every file goes to a temporary name and is moved into
/// place, names are checked to stay inside the folder (they come from bundles), and what was written, the figures
/// a format can show inline, the notes for Data quality and the outputs that failed are kept for the exporters after.
/// </summary>
public sealed class ReportFolder
{
    private readonly List<string> _files = [];
    private readonly List<string> _notes = [];
    private readonly List<string> _failures = [];
    private readonly List<FigureBlock> _charts = [];
    private readonly List<FigureBlock> _flameGraphs = [];
    private readonly HashSet<string> _taken = new(StringComparer.OrdinalIgnoreCase);

    /// <summary>A folder at <paramref name="root"/> (created); <paramref name="progress"/> hears what is being written.</summary>
    public ReportFolder(string root, IProgress<string> progress)
    {
        Root = root;
        Progress = progress;
        Directory.CreateDirectory(root);
    }

    /// <summary>The folder's path.</summary>
    public string Root { get; }

    /// <summary>Where exporters say what they are writing.</summary>
    public IProgress<string> Progress { get; }

    /// <summary>Absolute paths of the files written so far, in the order they were written.</summary>
    public IReadOnlyList<string> Files => _files;

    /// <summary>Lines for the report's Data quality: what was left out and why.</summary>
    public IReadOnlyList<string> Notes => _notes;

    /// <summary>One line per output that failed: its name and why.</summary>
    public IReadOnlyList<string> Failures => _failures;

    /// <summary>Charts written so far, for the formats that show them inline.</summary>
    public IReadOnlyList<FigureBlock> Charts => _charts;

    /// <summary>Flame graphs written so far, for the formats that show them inline.</summary>
    public IReadOnlyList<FigureBlock> FlameGraphs => _flameGraphs;

    /// <summary>The written files' names relative to the folder, with <paramref name="and"/>, in name order.</summary>
    public IReadOnlyList<string> RelativeNames(params string[] and) =>
        [.. _files.Select(f => Path.GetRelativePath(Root, f).Replace('\\', '/')).Concat(and).Order(StringComparer.Ordinal)];

    /// <summary>Adds a line to Data quality.</summary>
    public void Note(string note) => _notes.Add(note);

    /// <summary>Records an output that failed.</summary>
    public void Failed(string output, string why) => _failures.Add($"{output} not written: {why}");

    /// <summary>Keeps a chart for inline display.</summary>
    public void AddChart(FigureBlock chart) => _charts.Add(chart);

    /// <summary>Keeps a flame graph for inline display.</summary>
    public void AddFlameGraph(FigureBlock flameGraph) => _flameGraphs.Add(flameGraph);

    /// <summary>Writes a text file at <paramref name="relative"/>.</summary>
    public void Write(string relative, string text)
    {
        var path = Prepare(relative);
        AtomicFile.WriteAllText(path, text);
        _files.Add(path);
    }

    /// <summary>Writes a binary file at <paramref name="relative"/>.</summary>
    public void Write(string relative, byte[] bytes)
    {
        var path = Prepare(relative);
        AtomicFile.WriteAllBytes(path, bytes);
        _files.Add(path);
    }

    private string Prepare(string relative)
    {
        relative = Unused(relative);
        // Names come from bundles and labels: resolved and checked to stay inside the report folder. A compare file
        // joins three slugs and may pass the 128 characters of one bundle name; its parts are still checked one by one.
        var path = BundleNames.IsValidRelativePath(relative) || !relative.Split('/').All(LongValidName)
            ? BundleNames.Resolve(Root, relative, "report file")
            : Inside(relative);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        return path;
    }

    // Two outputs can come to one name (labels 'b/c' and 'b:c', bundle names sharing their first 40 characters, names
    // differing only in case on a case-blind disk): the later one gets -2, -3, …, so no file of the report replaces another.
    private string Unused(string relative)
    {
        if (_taken.Add(relative))
        {
            return relative;
        }

        var extension = Path.GetExtension(relative);
        var stem = relative[..^extension.Length];
        for (var n = 2; ; n++)
        {
            var candidate = $"{stem}-{n}{extension}";
            if (_taken.Add(candidate))
            {
                return candidate;
            }
        }
    }

    private static bool LongValidName(string part) =>
        BundleNames.IsValidName(part[..Math.Min(part.Length, BundleNames.MaxNameLength)]) && part.All(c => char.IsAsciiLetterOrDigit(c) || c is '_' or '.' or '+' or '-');

    private string Inside(string relative)
    {
        var root = Path.TrimEndingDirectorySeparator(Path.GetFullPath(Root));
        var full = Path.GetFullPath(Path.Combine(root, relative.Replace('/', Path.DirectorySeparatorChar)));
        return full.StartsWith(root + Path.DirectorySeparatorChar, StringComparison.Ordinal)
            ? full
            : BundleNames.Resolve(Root, relative, "report file");
    }
}
