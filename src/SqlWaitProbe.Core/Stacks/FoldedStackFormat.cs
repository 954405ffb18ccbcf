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

    // 2^63 exactly: every finite double below it converts to a long without overflow.
    private const double FirstCountTooLarge = 9223372036854775808.0;

    /// <summary>
    /// The one-line error for counts whose sum passes <see cref="long.MaxValue"/>, at <paramref name="lineNumber"/> of
    /// <paramref name="file"/> (the line that made the total too large).
    /// </summary>
    public static BadInputException SumTooLarge(string file, long? lineNumber) => new(
        $"the counts add up to more than {long.MaxValue.ToString(CultureInfo.InvariantCulture)}, the largest total the probe can sum; split the input or scale its counts down",
        file,
        lineNumber);

    /// <summary>
    /// Adds <paramref name="weight"/> to <paramref name="total"/>, or throws <see cref="SumTooLarge"/> for
    /// <paramref name="file"/> and <paramref name="lineNumber"/> when the sum would pass <see cref="long.MaxValue"/>.
    /// </summary>
    public static long CheckedSum(long total, long weight, string file, long? lineNumber)
    {
        try
        {
            return checked(total + weight);
        }
        catch (OverflowException)
        {
            throw SumTooLarge(file, lineNumber);
        }
    }

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

        // Differential and fractional folded files carry decimal counts; round them. NaN, infinities, negative counts and
        // counts past 64 bits are refused rather than wrapped into nonsense.
        if (double.TryParse(countText, NumberStyles.Float, CultureInfo.InvariantCulture, out var fractional) && double.IsFinite(fractional)
            && fractional >= 0 && Math.Round(fractional) < FirstCountTooLarge)
        {
            return (line[..space], (long)Math.Round(fractional));
        }

        throw new BadInputException(
            $"the count '{Truncate(countText.ToString())}' is not a finite, non-negative number of at most {long.MaxValue.ToString(CultureInfo.InvariantCulture)}",
            file,
            lineNumber);
    }

    /// <summary>
    /// Reads a folded file into <paramref name="profile"/>: the one folded-stack parser of the probe (bundles,
    /// <c>probe stacks</c> input, tests). The first element of each line is taken as the process name when
    /// <paramref name="firstFrameIsProcess"/> is set (the bundle's form), else the process is <c>all</c>. Each
    /// distinct frame text is parsed once: large folded files repeat the same frames millions of times.
    /// </summary>
    public static long ReadInto(TextReader reader, string file, StackProfile profile, bool firstFrameIsProcess)
    {
        ArgumentNullException.ThrowIfNull(reader);
        ArgumentNullException.ThrowIfNull(profile);
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
            if (space <= 0 || !long.TryParse(line[(space + 1)..], NumberStyles.None, CultureInfo.InvariantCulture, out var weight))
            {
                // Fractional counts and errors: rounded, or worded with file and line.
                weight = SplitLine(line.ToString(), file, lineNumber).Weight;
            }

            var stackText = line[..space];
            var stack = StackTable.Empty;
            var process = "all";
            var first = firstFrameIsProcess;
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
                    id = profile.Frames.Intern(ParseFrame(key));
                    frames.Add(key, id);
                }

                stack = profile.Stacks.Push(stack, id);
            }

            if (!profile.TryAdd(process, stack, weight))
            {
                throw SumTooLarge(file, lineNumber);
            }

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
