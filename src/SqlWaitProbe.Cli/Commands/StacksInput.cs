using System.Globalization;
using System.Text;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.Etl;
using SqlWaitProbe.Etl.Profiles;
using SqlWaitProbe.Linux.Perf;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>
/// The input of a <c>probe stacks</c> command: <c>perf script</c> output (plain or gzip), folded stacks, speedscope
/// JSON, or a Windows trace (.etl, PerfView's .etl.zip), detected from the content. A file is named by its path;
/// <c>-</c> is standard input, and pipes, FIFOs and <c>/dev/stdin</c> are streamed once from start to end, never
/// seeked (a trace, whose processors' buffers are merged by seeking, is copied to a private scratch file first).
/// </summary>
internal sealed class StacksInput : IDisposable
{
    private const int HeadBytes = 80;

    private readonly IProbeConsole _console;
    private readonly string? _path;
    private readonly ReplayStream? _pipe;
    private bool _sniffed;

    private StacksInput(IProbeConsole console, string name, string? path, ReplayStream? pipe)
    {
        _console = console;
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
            return new StacksInput(console, "stdin", null, new ReplayStream(console.OpenStandardInput()));
        }

        InputFile.Require(argument);
        var stream = new FileStream(argument, FileMode.Open, FileAccess.Read, FileShare.ReadWrite, 1 << 16, FileOptions.SequentialScan);
        if (stream.CanSeek)
        {
            stream.Dispose();
            return new StacksInput(console, argument, argument, null);
        }

        return new StacksInput(console, argument, null, new ReplayStream(stream));
    }

    /// <summary>The stacks of <paramref name="argument"/> as a profile (process first, frames as <c>module!symbol</c> when known).</summary>
    public static StackProfile LoadProfile(IProbeConsole console, string argument, StacksSelection? selection = null) =>
        LoadWithUnit(console, argument, selection).Profile;

    /// <summary>The stacks and the unit of their weights (<c>nanoseconds</c> for perf's cpu-clock periods, <c>none</c> for counts; a speedscope file's own unit).</summary>
    public static SpeedscopeImport LoadWithUnit(IProbeConsole console, string argument, StacksSelection? selection = null)
    {
        using var input = Open(console, argument);
        return input.ReadProfile(selection ?? StacksSelection.All);
    }

    /// <summary>Folded stack text → weight: perf input folded as inferno-collapse-perf does, folded input merged line by line.</summary>
    public static IReadOnlyDictionary<string, long> LoadFolded(IProbeConsole console, string argument, PerfFoldOptions options, StacksSelection? selection = null)
    {
        using var input = Open(console, argument);
        return input.ReadFolded(options, selection ?? StacksSelection.All);
    }

    /// <summary>Reads the whole input as a profile.</summary>
    public SpeedscopeImport ReadProfile(StacksSelection selection)
    {
        switch (Kind)
        {
            case StacksInputKind.Etl:
                return new SpeedscopeImport(ReadTrace(selection), "none");
            case StacksInputKind.PerfScript:
                var perf = new PerfScriptReader(new PerfFoldOptions(IncludeAddresses: selection.Addresses));
                var read = perf.ReadProfile(Body(), Name);
                return new SpeedscopeImport(Only(read, selection.Process), perf.WeightUnit);
            case StacksInputKind.Speedscope:
                using (var json = Body())
                {
                    var imported = SpeedscopeReader.Read(json, Name);
                    return imported with { Profile = Only(imported.Profile, selection.Process) };
                }

            default:
                var profile = new StackProfile();
                using (var reader = Text())
                {
                    FoldedStackFormat.ReadInto(reader, Name, profile, firstFrameIsProcess: true);
                }

                return new SpeedscopeImport(Only(profile, selection.Process), "none");
        }
    }

    /// <summary>Reads the whole input as folded text → weight.</summary>
    public IReadOnlyDictionary<string, long> ReadFolded(PerfFoldOptions options, StacksSelection selection)
    {
        switch (Kind)
        {
            case StacksInputKind.PerfScript:
                return Only(new PerfScriptReader(options).Fold(Body(), Name), selection.Process);
            case StacksInputKind.Speedscope:
                return Fold(ReadProfile(selection).Profile);
            case StacksInputKind.Etl:
                return Fold(ReadTrace(selection with { Addresses = selection.Addresses || options.IncludeAddresses, ProcessIds = selection.ProcessIds || options.IncludePid }));
            default:
                var folded = new Dictionary<string, long>(StringComparer.Ordinal);
                using (var reader = Text())
                {
                    ReadFoldedLines(reader, folded);
                }

                return Only(folded, selection.Process);
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

    // A Windows trace: every sample of the processes asked for, named as the trace allows; the Idle process's samples
    // (processors with nothing to run) are left out of the stacks and said so on stderr, as PerfView leaves them out.
    private StackProfile ReadTrace(StacksSelection selection)
    {
        using var trace = _pipe is null ? EtlFile.Open(_path!, BundleLimits.Current) : EtlFile.FromPipe(Body(), Name, BundleLimits.Current);
        var reader = EtlTraceReader.Open(trace.Stream, trace.Name);
        var builder = new EtlProfileBuilder(reader, new EtlProfileOptions { Addresses = selection.Addresses, Process = selection.Process, ProcessIds = selection.ProcessIds });
        reader.Read(builder);
        if (selection.Process is { } wanted && builder.SelectedSamples == 0)
        {
            throw new BadInputException($"no samples of a process named or numbered '{wanted}'; the trace has: {string.Join(", ", builder.ProcessSamples.Take(20).Select(p => p.Process))}", Name);
        }

        var s = reader.Statistics;
        _console.Error.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"{Title}: {builder.SelectedSamples} CPU samples{(selection.Process is null ? $" of {builder.ProcessSamples.Count} processes" : $" of '{selection.Process}'")}; {s.IdleSamples} samples of the Idle process (processors with nothing to run) left out, as PerfView leaves them out"));
        return builder.Build();
    }

    // Only the entries of the process asked for: by name, or as 'name-PID' (perf folded with --pid).
    private StackProfile Only(StackProfile profile, string? process)
    {
        if (process is null)
        {
            return profile;
        }

        var only = new StackProfile();
        foreach (var (name, stack, weight) in profile.Entries)
        {
            if (IsProcess(name, process))
            {
                only.Add(name, profile.FramesOf(stack).ToList(), weight);
            }
        }

        return only.TotalWeight > 0 ? only : throw NoSuchProcess(process, profile.Processes);
    }

    private Dictionary<string, long> Only(IReadOnlyDictionary<string, long> folded, string? process)
    {
        if (process is null)
        {
            return folded as Dictionary<string, long> ?? new Dictionary<string, long>(folded, StringComparer.Ordinal);
        }

        var only = folded.Where(e => IsProcess(e.Key.Split(';', 2)[0], process)).ToDictionary(e => e.Key, e => e.Value, StringComparer.Ordinal);
        return only.Count > 0 ? only : throw NoSuchProcess(process, folded.Keys.Select(k => k.Split(';', 2)[0]).Distinct(StringComparer.Ordinal));
    }

    private static bool IsProcess(string name, string process) =>
        string.Equals(name, process, StringComparison.Ordinal) || name.StartsWith(process + "-", StringComparison.Ordinal)
        || (process.All(char.IsAsciiDigit) && (name.EndsWith("-" + process, StringComparison.Ordinal) || name.Contains("-" + process + "/", StringComparison.Ordinal)));

    private BadInputException NoSuchProcess(string process, IEnumerable<string> processes) =>
        new($"no process named '{process}'; the input has: {string.Join(", ", processes.Order(StringComparer.Ordinal).Take(20))}", Name);

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
        if (Head() is var head && (EtlFile.LooksLikeEtl(head) || EtlFile.LooksLikeZip(head)))
        {
            return StacksInputKind.Etl;
        }

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
            throw new BadInputException("this is neither perf script output (no 'COMM PID TIME: EVENT:' line), folded stacks ('frame;frame;... COUNT'), speedscope JSON nor a Windows trace (.etl, .etl.zip)", Name, sniff.LineNumber);
        }

        return StacksInputKind.Folded;
    }

    // The first bytes, without taking them from the readers that follow.
    private byte[] Head()
    {
        if (_pipe is not null)
        {
            return _pipe.Peek(HeadBytes).ToArray();
        }

        using var file = new FileStream(_path!, FileMode.Open, FileAccess.Read, FileShare.ReadWrite, HeadBytes);
        var head = new byte[HeadBytes];
        return head[..file.ReadAtLeast(head, HeadBytes, throwOnEndOfStream: false)];
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
