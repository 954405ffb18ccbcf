using System.Globalization;
using System.Text;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.Linux.Perf;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>
/// The input of a <c>probe stacks</c> command: <c>perf script</c> output (plain or gzip), folded stacks or speedscope
/// JSON, detected from the content. A file is named by its path; <c>-</c> is standard input, and pipes, FIFOs and
/// <c>/dev/stdin</c> are streamed once from start to end, never seeked.
/// </summary>
internal sealed class StacksInput : IDisposable
{
    private readonly string? _path;
    private readonly ReplayStream? _pipe;
    private bool _sniffed;

    private StacksInput(string name, string? path, ReplayStream? pipe)
    {
        Name = name;
        _path = path;
        _pipe = pipe;
        Kind = Detect();
    }

    /// <summary>The input as errors name it: the path, or <c>stdin</c>.</summary>
    public string Name { get; }

    /// <summary>What the content is.</summary>
    public StacksInputKind Kind { get; }

    /// <summary>A file name for titles: the path's file name, or <c>stdin</c>.</summary>
    public string Title => _path is null && Name == "stdin" ? "stdin" : Path.GetFileName(Name);

    /// <summary>Opens <paramref name="argument"/> as the user gave it.</summary>
    public static StacksInput Open(IProbeConsole console, string argument)
    {
        if (argument == "-")
        {
            return new StacksInput("stdin", null, new ReplayStream(console.OpenStandardInput()));
        }

        InputFile.Require(argument);
        var stream = new FileStream(argument, FileMode.Open, FileAccess.Read, FileShare.ReadWrite, 1 << 16, FileOptions.SequentialScan);
        if (stream.CanSeek)
        {
            stream.Dispose();
            return new StacksInput(argument, argument, null);
        }

        return new StacksInput(argument, null, new ReplayStream(stream));
    }

    /// <summary>The stacks of <paramref name="argument"/> as a profile (process first, frames as <c>module!symbol</c> when known).</summary>
    public static StackProfile LoadProfile(IProbeConsole console, string argument) => LoadWithUnit(console, argument).Profile;

    /// <summary>The stacks and the unit of their weights (<c>nanoseconds</c> for perf's cpu-clock periods, <c>none</c> for counts; a speedscope file's own unit).</summary>
    public static SpeedscopeImport LoadWithUnit(IProbeConsole console, string argument)
    {
        using var input = Open(console, argument);
        return input.ReadProfile();
    }

    /// <summary>Folded stack text → weight: perf input folded as inferno-collapse-perf does, folded input merged line by line.</summary>
    public static IReadOnlyDictionary<string, long> LoadFolded(IProbeConsole console, string argument, PerfFoldOptions options)
    {
        using var input = Open(console, argument);
        return input.ReadFolded(options);
    }

    /// <summary>Reads the whole input as a profile.</summary>
    public SpeedscopeImport ReadProfile()
    {
        switch (Kind)
        {
            case StacksInputKind.PerfScript:
                var perf = new PerfScriptReader();
                var read = perf.ReadProfile(Body(), Name);
                return new SpeedscopeImport(read, perf.WeightUnit);
            case StacksInputKind.Speedscope:
                using (var json = Body())
                {
                    return SpeedscopeReader.Read(json, Name);
                }

            default:
                var profile = new StackProfile();
                using (var reader = Text())
                {
                    FoldedStackFormat.ReadInto(reader, Name, profile, firstFrameIsProcess: true);
                }

                return new SpeedscopeImport(profile, "none");
        }
    }

    /// <summary>Reads the whole input as folded text → weight.</summary>
    public IReadOnlyDictionary<string, long> ReadFolded(PerfFoldOptions options)
    {
        switch (Kind)
        {
            case StacksInputKind.PerfScript:
                return new PerfScriptReader(options).Fold(Body(), Name);
            case StacksInputKind.Speedscope:
                return Fold(ReadProfile().Profile);
            default:
                var folded = new Dictionary<string, long>(StringComparer.Ordinal);
                using (var reader = Text())
                {
                    ReadFoldedLines(reader, folded);
                }

                return folded;
        }
    }

    /// <inheritdoc />
    public void Dispose() => _pipe?.Dispose();

    /// <summary>A profile's stacks in folded form: the process first, frames as the bundle writes them.</summary>
    internal static Dictionary<string, long> Fold(StackProfile profile)
    {
        var folded = new Dictionary<string, long>(StringComparer.Ordinal);
        var text = new StringBuilder(256);
        foreach (var (process, stack, weight) in profile.Entries)
        {
            text.Clear().Append(process.Replace(';', ':'));
            foreach (var frame in profile.FramesOf(stack))
            {
                text.Append(';').Append(FoldedStackFormat.FormatFrame(frame));
            }

            var key = text.ToString();

            // A part of the profile's total, which was checked when it was read.
            folded[key] = checked(folded.GetValueOrDefault(key) + weight);
        }

        return folded;
    }

    private void ReadFoldedLines(TextReader reader, Dictionary<string, long> folded)
    {
        long lineNumber = 0, total = 0;
        while (reader.ReadLine() is { } line)
        {
            lineNumber++;
            if (line.Length == 0 || line[0] == '#')
            {
                continue;
            }

            if (line.AsSpan().IndexOfAnyInRange('\0', '\b') >= 0)
            {
                throw new BadInputException("this is binary data, not folded stacks", Name, lineNumber);
            }

            var (stack, weight) = FoldedStackFormat.SplitLine(line.TrimEnd(), Name, lineNumber);

            // The file's total is checked, so no stack's sum (nor any later total of these lines) can overflow.
            total = FoldedStackFormat.CheckedSum(total, weight, Name, lineNumber);
            folded[stack] = checked(folded.GetValueOrDefault(stack) + weight);
        }
    }

    private StacksInputKind Detect()
    {
        var sniff = PerfScriptReader.Sniff(Body(), Name);
        if (sniff.IsPerfScript)
        {
            return StacksInputKind.PerfScript;
        }

        if (sniff.FirstLine is null)
        {
            throw new BadInputException("holds no stacks: only blank lines and comments", Name);
        }

        if (SpeedscopeReader.LooksLikeJson(sniff.FirstLine))
        {
            return StacksInputKind.Speedscope;
        }

        var space = sniff.FirstLine.LastIndexOf(' ');
        if (space <= 0 || !double.TryParse(sniff.FirstLine.AsSpan(space + 1), NumberStyles.Float, CultureInfo.InvariantCulture, out _))
        {
            throw new BadInputException("this is neither perf script output (no 'COMM PID TIME: EVENT:' line), folded stacks ('frame;frame;... COUNT') nor speedscope JSON", Name, sniff.LineNumber);
        }

        return StacksInputKind.Folded;
    }

    // The content from its first byte: the file opened again, or the pipe replayed (once, after sniffing).
    private Stream Body()
    {
        if (_pipe is null)
        {
            return new FileStream(_path!, FileMode.Open, FileAccess.Read, FileShare.ReadWrite, 1 << 16, FileOptions.SequentialScan);
        }

        if (_sniffed)
        {
            _pipe.Rewind();
        }

        _sniffed = true;
        return _pipe;
    }

    // Lines are bounded (a file of zeros with no line break must not become one giant string).
    private BoundedLineReader Text() => new(new StreamReader(Body(), Encoding.UTF8, detectEncodingFromByteOrderMarks: true), Name);
}
