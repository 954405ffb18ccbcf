using System.Text;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Linux.Perf;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>Loads the input of a <c>probe stacks</c> command: <c>perf script</c> output (plain or gzip) or folded stacks, detected from the content.</summary>
internal static class StacksInput
{
    /// <summary>True when <paramref name="path"/> holds perf script output; false for folded stacks; bad input otherwise.</summary>
    public static bool IsPerfScript(string path)
    {
        var sniff = PerfScriptReader.Sniff(path);
        if (sniff.IsPerfScript)
        {
            return true;
        }

        if (sniff.FirstLine is null)
        {
            throw new BadInputException("holds no stacks: only blank lines and comments", path);
        }

        var space = sniff.FirstLine.LastIndexOf(' ');
        if (space <= 0 || !double.TryParse(sniff.FirstLine.AsSpan(space + 1), System.Globalization.NumberStyles.Float, System.Globalization.CultureInfo.InvariantCulture, out _))
        {
            throw new BadInputException("this is neither perf script output (no 'COMM PID TIME: EVENT:' line) nor folded stacks ('frame;frame;... COUNT')", path, sniff.LineNumber);
        }

        return false;
    }

    /// <summary>The stacks of <paramref name="path"/> as a profile (process first, frames as <c>module!symbol</c> when known).</summary>
    public static StackProfile LoadProfile(string path)
    {
        if (IsPerfScript(path))
        {
            return new PerfScriptReader().ReadProfile(path);
        }

        var profile = new StackProfile();
        using var reader = OpenText(path);
        StacksFoldedProfileReader.Read(reader, path, profile);
        return profile;
    }

    /// <summary>Folded stack text → weight: perf input folded as inferno-collapse-perf does, folded input merged line by line.</summary>
    public static IReadOnlyDictionary<string, long> LoadFolded(string path, PerfFoldOptions options)
    {
        if (IsPerfScript(path))
        {
            return new PerfScriptReader(options).Fold(path);
        }

        var folded = new Dictionary<string, long>(StringComparer.Ordinal);
        using var reader = OpenText(path);
        long lineNumber = 0;
        while (reader.ReadLine() is { } line)
        {
            lineNumber++;
            if (line.Length == 0 || line[0] == '#')
            {
                continue;
            }

            if (line.AsSpan().IndexOfAnyInRange('\0', '\b') >= 0)
            {
                throw new BadInputException("this is binary data, not folded stacks", path, lineNumber);
            }

            var (stack, weight) = FoldedStackFormat.SplitLine(line.TrimEnd(), path, lineNumber);
            folded[stack] = folded.GetValueOrDefault(stack) + weight;
        }

        return folded;
    }

    private static StreamReader OpenText(string path) => new(path, Encoding.UTF8, detectEncodingFromByteOrderMarks: true);
}
