using System.Globalization;
using System.Text;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Core.Stacks;

/// <summary>
/// Reads and writes folded stacks: root-first frames joined by <c>;</c>, a space, then the weight.
/// The bundle's form writes each frame as <c>module!symbol</c> with <c>_[k]</c>, <c>_[j]</c> or <c>_[i]</c>
/// for kernel, JIT and inlined frames, after the process name as the first element. Plain folded
/// files (frames without modules) read as frames with an empty module.
/// </summary>
public static class FoldedStackFormat
{
    private const string KernelSuffix = "_[k]";
    private const string JitSuffix = "_[j]";
    private const string InlinedSuffix = "_[i]";

    /// <summary>Parses one frame of the bundle's form.</summary>
    public static Frame ParseFrame(string text)
    {
        var kind = FrameKind.User;
        if (text.EndsWith(KernelSuffix, StringComparison.Ordinal))
        {
            kind = FrameKind.Kernel;
            text = text[..^KernelSuffix.Length];
        }
        else if (text.EndsWith(JitSuffix, StringComparison.Ordinal))
        {
            kind = FrameKind.Jit;
            text = text[..^JitSuffix.Length];
        }
        else if (text.EndsWith(InlinedSuffix, StringComparison.Ordinal))
        {
            kind = FrameKind.Inlined;
            text = text[..^InlinedSuffix.Length];
        }

        var bang = text.IndexOf('!');
        return bang <= 0 ? new Frame(string.Empty, text, kind) : new Frame(text[..bang], text[(bang + 1)..], kind);
    }

    /// <summary>Formats one frame in the bundle's form.</summary>
    public static string FormatFrame(Frame frame)
    {
        var name = frame.QualifiedName.Replace(';', ':');
        return frame.Kind switch
        {
            FrameKind.Kernel => name + KernelSuffix,
            FrameKind.Jit => name + JitSuffix,
            FrameKind.Inlined => name + InlinedSuffix,
            _ => name,
        };
    }

    /// <summary>
    /// Splits a folded line into its stack text and weight. Throws <see cref="BadInputException"/> naming
    /// <paramref name="file"/> and <paramref name="lineNumber"/> when the weight is missing or not a number.
    /// </summary>
    public static (string Stack, long Weight) SplitLine(string line, string file, long lineNumber)
    {
        var space = line.LastIndexOf(' ');
        if (space <= 0 || space == line.Length - 1)
        {
            throw new BadInputException("a folded stack line needs 'frame;frame;... COUNT' but this line has no count", file, lineNumber);
        }

        var countText = line.AsSpan(space + 1);
        if (long.TryParse(countText, NumberStyles.None, CultureInfo.InvariantCulture, out var weight))
        {
            return (line[..space], weight);
        }

        // Differential and fractional folded files carry decimal counts; round them.
        if (double.TryParse(countText, NumberStyles.Float, CultureInfo.InvariantCulture, out var fractional) && fractional >= 0)
        {
            return (line[..space], (long)Math.Round(fractional));
        }

        throw new BadInputException($"the count '{Truncate(countText.ToString())}' is not a whole number", file, lineNumber);
    }

    /// <summary>
    /// Reads a folded file into <paramref name="profile"/>. The first element of each line is taken as the
    /// process name when <paramref name="firstFrameIsProcess"/> is set (the bundle's form), else the
    /// process is <c>all</c>.
    /// </summary>
    public static long ReadInto(TextReader reader, string file, StackProfile profile, bool firstFrameIsProcess)
    {
        long lineNumber = 0, lines = 0;
        var frames = new List<int>(64);
        while (reader.ReadLine() is { } line)
        {
            lineNumber++;
            if (line.Length == 0 || line[0] == '#')
            {
                continue;
            }

            if (line.Contains('\0'))
            {
                throw new BadInputException("this is binary data, not folded stacks", file, lineNumber);
            }

            var (stackText, weight) = SplitLine(line, file, lineNumber);
            frames.Clear();
            var process = "all";
            var first = true;
            foreach (var part in stackText.Split(';'))
            {
                if (first && firstFrameIsProcess)
                {
                    process = part;
                    first = false;
                    continue;
                }

                first = false;
                frames.Add(profile.Frames.Intern(ParseFrame(part)));
            }

            profile.Add(process, profile.Stacks.Intern(System.Runtime.InteropServices.CollectionsMarshal.AsSpan(frames)), weight);
            lines++;
        }

        return lines;
    }

    /// <summary>Writes the profile in the bundle's form, heaviest stacks first for readability.</summary>
    public static void Write(StackProfile profile, TextWriter writer)
    {
        var sb = new StringBuilder(256);
        foreach (var (process, stack, weight) in profile.Entries.OrderBy(e => e.Process, StringComparer.Ordinal).ThenByDescending(e => e.Weight))
        {
            sb.Clear();
            sb.Append(process.Replace(';', ':'));
            foreach (var frame in profile.FramesOf(stack))
            {
                sb.Append(';').Append(FormatFrame(frame));
            }

            sb.Append(' ').Append(weight.ToString(CultureInfo.InvariantCulture));
            writer.Write(sb);
            writer.Write('\n');
        }
    }

    private static string Truncate(string s) => s.Length <= 40 ? s : s[..40] + "…";
}
