using System.Runtime.CompilerServices;
using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Linux.Perf;

/// <summary>
/// Reads <c>perf script</c> output (plain text or gzip, detected by magic bytes) as a stream: memory grows with
/// distinct frames and stacks, not with the file. Bad input raises <see cref="Core.Errors.BadInputException"/>
/// naming the file and line.
/// </summary>
public sealed class PerfScriptReader
{
    /// <summary>A reader with the given folding options (default: process name only, no annotations).</summary>
    public PerfScriptReader(PerfFoldOptions? options = null)
    {
        Options = options ?? PerfFoldOptions.Default;
    }

    /// <summary>The options frames and process names follow.</summary>
    public PerfFoldOptions Options { get; }

    /// <summary>
    /// Streams the samples of <paramref name="path"/>, interning frames in <paramref name="frames"/> and stacks in
    /// <paramref name="stacks"/>. Only samples of the file's first event type are returned.
    /// </summary>
    public IEnumerable<StackSample> ReadSamples(string path, FrameTable frames, StackTable stacks) => ReadSamples(PerfLineSource.Open(path), frames, stacks);

    /// <summary>As <see cref="ReadSamples(string, FrameTable, StackTable)"/>, from a stream (a pipe is read once, never seeked) it then owns.</summary>
    public IEnumerable<StackSample> ReadSamples(Stream stream, string name, FrameTable frames, StackTable stacks) => ReadSamples(PerfLineSource.Open(stream, name), frames, stacks);

    private IEnumerable<StackSample> ReadSamples(PerfLineSource source, FrameTable frames, StackTable stacks)
    {
        var catalog = new PerfFrameCatalog(Options);
        using var parser = new PerfScriptParser(source, Options, catalog);
        var bundleIds = new List<int>();
        long total = 0;
        while (parser.Next())
        {
            // Every consumer sums these weights (in a profile, per second, per module): checking the file's total once
            // here means none of those sums can overflow, and the error names the sample's line.
            total = FoldedStackFormat.CheckedSum(total, parser.Current.Period, source.File, parser.CurrentLine);
            var stack = StackTable.Empty;
            foreach (var id in parser.CurrentFrames)
            {
                while (bundleIds.Count <= id)
                {
                    bundleIds.Add(-1);
                }

                if (bundleIds[id] < 0)
                {
                    bundleIds[id] = frames.Intern(catalog[id].Frame);
                }

                stack = stacks.Push(stack, bundleIds[id]);
            }

            EventName ??= parser.EventName;
            var h = parser.Current;
            yield return new StackSample(h.Comm, h.Pid, h.Tid, h.Cpu, h.TimestampSeconds, h.Period, stack);
        }
    }

    /// <summary>
    /// Looks at the first line that is neither blank nor a <c>#</c> comment: perf script output starts with an event line
    /// (<c>COMM PID … TIME: … EVENT:</c>). Missing, empty and binary files raise <see cref="Core.Errors.BadInputException"/>.
    /// </summary>
    public static PerfInputSniff Sniff(string path) => Sniff(PerfLineSource.Open(path));

    /// <summary>As <see cref="Sniff(string)"/>, reading the start of <paramref name="stream"/>, which it then disposes.</summary>
    public static PerfInputSniff Sniff(Stream stream, string name) => Sniff(PerfLineSource.Open(stream, name));

    private static PerfInputSniff Sniff(PerfLineSource opened)
    {
        using var source = opened;
        while (source.TryReadLine(out var line))
        {
            var trimmed = line.Trim();
            if (trimmed.IsEmpty || trimmed[0] == '#')
            {
                continue;
            }

            var isPerf = PerfEventLine.TrySplit(trimmed, out _, out _, out _, out var end) && trimmed[end..].Contains(':');
            return new PerfInputSniff(isPerf, trimmed.ToString(), source.LineNumber);
        }

        return new PerfInputSniff(false, null, source.LineNumber);
    }

    /// <summary>The sampled event of the last input read (<c>cpu-clock</c>, <c>cycles</c>…), null before any sample.</summary>
    public string? EventName { get; private set; }

    /// <summary>
    /// The unit of the weights read (speedscope's names): <c>nanoseconds</c> for perf's time-based events, whose
    /// period is in ns; <c>none</c> for counts (cycles, or samples without a period).
    /// </summary>
    public string WeightUnit => PerfWeightUnit.Of(EventName);

    /// <summary>Reads <paramref name="path"/> into an aggregated profile; the process of each stack is perf's command name.</summary>
    public StackProfile ReadProfile(string path) => ReadProfile(PerfLineSource.Open(path));

    /// <summary>As <see cref="ReadProfile(string)"/>, from a stream it then owns.</summary>
    public StackProfile ReadProfile(Stream stream, string name) => ReadProfile(PerfLineSource.Open(stream, name));

    private StackProfile ReadProfile(PerfLineSource source)
    {
        var profile = new StackProfile();
        foreach (var sample in ReadSamples(source, profile.Frames, profile.Stacks))
        {
            // The reader checked the file's total, so this sum fits.
            profile.Add(sample.Process, sample.StackId, sample.Weight);
        }

        return profile;
    }

    /// <summary>
    /// Folds <paramref name="path"/> exactly as inferno-collapse-perf does with the same options: stack text
    /// (<c>process;root;...;leaf</c>) → summed weight.
    /// </summary>
    public IReadOnlyDictionary<string, long> Fold(string path) => new PerfParallelFolder(Options).Fold(path);

    /// <summary>As <see cref="Fold(string)"/>, from a stream (a pipe is read once, never seeked) it then owns.</summary>
    public IReadOnlyDictionary<string, long> Fold(Stream stream, string name) => new PerfParallelFolder(Options).Fold(PerfLineSource.Open(stream, name));
}
