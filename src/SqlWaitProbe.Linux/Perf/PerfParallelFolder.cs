using System.Runtime.CompilerServices;
using System.Text;
using System.Threading.Channels;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Linux.Perf;

/// <summary>
/// Folds a perf script file on several threads: one reads and decodes blocks of whole events (cut after blank lines),
/// the others parse blocks into their own frame catalogs and stack tables; the folded texts are merged at the end.
/// The first block is parsed alone first, to check the file and fix the event type kept.
/// </summary>
internal sealed class PerfParallelFolder(PerfFoldOptions options)
{
    private const int BlockChars = 1 << 20;

    /// <summary>Folded stack text → weight for <paramref name="path"/>.</summary>
    public Dictionary<string, long> Fold(string path) => Fold(PerfLineSource.Open(path));

    /// <summary>Folded stack text → weight for the lines of <paramref name="opened"/>, which it disposes.</summary>
    public Dictionary<string, long> Fold(PerfLineSource opened)
    {
        using var source = opened;
        var path = source.File;
        var first = source.ReadBlock(BlockChars) ?? throw new BadInputException("the file is empty", path);
        var head = new Worker(options, path);
        var eventName = head.ParseFirst(first);
        while (eventName is null && source.ReadBlock(BlockChars) is { } more)
        {
            // Only comments so far: keep reading alone until the first event names the type kept.
            eventName = head.ParseFirst(more);
        }

        var workers = new List<Worker> { head };
        if (eventName is not null)
        {
            var channel = Channel.CreateBounded<PerfTextBlock>(new BoundedChannelOptions(4) { SingleWriter = true });
            var count = Math.Clamp(Environment.ProcessorCount, 1, 3);
            var tasks = new List<Task>();
            using var failed = new CancellationTokenSource();
            for (var i = 0; i < count; i++)
            {
                var worker = new Worker(options, path);
                workers.Add(worker);
                tasks.Add(Task.Run(async () =>
                {
                    try
                    {
                        await foreach (var block in channel.Reader.ReadAllAsync())
                        {
                            worker.Parse(block, eventName);
                        }
                    }
                    catch
                    {
                        // Stop the reader; the exception surfaces from WaitAll below.
                        await failed.CancelAsync();
                        throw;
                    }
                }));
            }

            try
            {
                while (!failed.IsCancellationRequested && source.ReadBlock(BlockChars) is { } block)
                {
                    channel.Writer.WriteAsync(block, failed.Token).AsTask().GetAwaiter().GetResult();
                }
            }
            catch (OperationCanceledException) when (failed.IsCancellationRequested)
            {
                // A worker failed; its exception is rethrown below.
            }
            finally
            {
                channel.Writer.TryComplete();
                try
                {
                    Task.WaitAll(tasks.ToArray());
                }
                catch (AggregateException e) when (e.Flatten().InnerExceptions.OfType<BadInputException>().FirstOrDefault() is { } bad)
                {
                    throw bad;
                }
            }
        }

        if (workers.Sum(w => w.Samples) == 0)
        {
            throw new BadInputException("no samples with call stacks in this perf script output (record with -g)", path, source.LineNumber);
        }

        // Each worker checked its own total with the line of each sample; the file's total is checked here, where the
        // blocks come together, and named by the file's last line.
        long total = 0;
        foreach (var worker in workers)
        {
            total = FoldedStackFormat.CheckedSum(total, worker.Total, path, source.LineNumber);
        }

        var folded = new Dictionary<string, long>(StringComparer.Ordinal);
        foreach (var worker in workers)
        {
            worker.MergeInto(folded);
        }

        return folded;
    }

    /// <summary>One thread's parsing state.</summary>
    private sealed class Worker(PerfFoldOptions options, string file)
    {
        private readonly PerfFrameCatalog _catalog = new(options);
        private readonly FoldedStackMap _weights = new();

        public long Samples { get; private set; }

        /// <summary>The sum of the weights parsed, checked as it grows.</summary>
        public long Total { get; private set; }

        /// <summary>Parses the file's first block, checking that it is perf output; returns the event type, or null when none was seen.</summary>
        public string? ParseFirst(PerfTextBlock block)
        {
            using var parser = new PerfScriptParser(new PerfBlockLineSource(block, file), options, _catalog) { RequireSamples = false };
            Drain(parser);
            System.Buffers.ArrayPool<char>.Shared.Return(block.Chars);
            return parser.EventName;
        }

        public void Parse(PerfTextBlock block, string eventName)
        {
            using var parser = new PerfScriptParser(new PerfBlockLineSource(block, file), options, _catalog, eventName);
            Drain(parser);
            System.Buffers.ArrayPool<char>.Shared.Return(block.Chars);
        }

        public void MergeInto(Dictionary<string, long> folded)
        {
            var text = new StringBuilder(512);
            foreach (var (process, frames, weight) in _weights.Entries())
            {
                text.Clear().Append(process);
                foreach (var id in frames)
                {
                    text.Append(';').Append(_catalog[id].FoldedName);
                }

                var line = text.ToString();
                // The file's total was checked before merging, so no stack's sum can pass it.
                folded[line] = checked(folded.GetValueOrDefault(line) + weight);
            }
        }

        [MethodImpl(MethodImplOptions.AggressiveOptimization)]
        private void Drain(PerfScriptParser parser)
        {
            while (parser.Next())
            {
                Total = FoldedStackFormat.CheckedSum(Total, parser.Current.Period, file, parser.CurrentLine);
                _weights.Add(parser.Current.Process, parser.CurrentFrames, parser.Current.Period);
                Samples++;
            }
        }
    }
}
