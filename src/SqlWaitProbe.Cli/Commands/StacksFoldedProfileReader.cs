using System.Globalization;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>
/// Reads a folded file into a profile the way <see cref="FoldedStackFormat.ReadInto"/> does (first element = process,
/// frames in the bundle's form), parsing each distinct frame text once: large folded files repeat the same frames millions of times.
/// </summary>
internal static class StacksFoldedProfileReader
{
    /// <summary>Adds every line of <paramref name="reader"/> to <paramref name="profile"/>; returns the number of stack lines.</summary>
    public static long Read(TextReader reader, string file, StackProfile profile)
    {
        var frames = new Dictionary<string, int>(StringComparer.Ordinal);
        var frameLookup = frames.GetAlternateLookup<ReadOnlySpan<char>>();
        var processes = new Dictionary<string, string>(StringComparer.Ordinal);
        var processLookup = processes.GetAlternateLookup<ReadOnlySpan<char>>();
        long lineNumber = 0, lines = 0;
        while (reader.ReadLine() is { } text)
        {
            lineNumber++;
            var line = text.AsSpan().TrimEnd();
            if (line.IsEmpty || line[0] == '#')
            {
                continue;
            }

            if (line.IndexOfAnyInRange('\0', '\b') >= 0)
            {
                throw new BadInputException("this is binary data, not folded stacks", file, lineNumber);
            }

            var space = line.LastIndexOf(' ');
            long weight;
            if (space <= 0 || !long.TryParse(line[(space + 1)..], NumberStyles.None, CultureInfo.InvariantCulture, out weight))
            {
                // Fractional counts and errors: the shared parser rounds the one and words the other.
                weight = FoldedStackFormat.SplitLine(line.ToString(), file, lineNumber).Weight;
            }

            var stackText = line[..space];
            var stack = StackTable.Empty;
            var process = "all";
            var first = true;
            foreach (var range in stackText.Split(';'))
            {
                var part = stackText[range];
                if (first)
                {
                    first = false;
                    if (!processLookup.TryGetValue(part, out var name))
                    {
                        name = part.ToString();
                        processes.Add(name, name);
                    }

                    process = name;
                    continue;
                }

                if (!frameLookup.TryGetValue(part, out var id))
                {
                    var key = part.ToString();
                    id = profile.Frames.Intern(FoldedStackFormat.ParseFrame(key));
                    frames.Add(key, id);
                }

                stack = profile.Stacks.Push(stack, id);
            }

            profile.Add(process, stack, weight);
            lines++;
        }

        return lines;
    }
}
