using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Cli.Tests.Fuzz;

/// <summary>
/// Runs mutated inputs through a parser. Bad input must surface as <see cref="BadInputException"/> (the
/// exit-2 path); any other exception is a bug, reported with the input saved for replay.
/// </summary>
public static class FuzzRunner
{
    /// <summary>Iterations per parser: a quick slice by default, <c>PROBE_FUZZ_ITERATIONS</c> for the full run.</summary>
    public static int Iterations =>
        int.TryParse(Environment.GetEnvironmentVariable("PROBE_FUZZ_ITERATIONS"), out var n) && n > 0 ? n : 1500;

    /// <summary>Feeds <see cref="Iterations"/> mutations of the seeds to <paramref name="parse"/>; returns how many were rejected as bad input.</summary>
    public static int Run(string name, IReadOnlyList<byte[]> seeds, Action<byte[]> parse, int? iterations = null)
    {
        var count = iterations ?? Iterations;
        var mutator = new Mutator(StableHash(name) ^ 0x5eed);
        var rejected = 0;
        var clock = System.Diagnostics.Stopwatch.StartNew();

        // PROBE_FUZZ_REPLAY=<saved input> runs one saved failure first (files are named probe-fuzz-NAME-N.bin).
        var replay = Environment.GetEnvironmentVariable("PROBE_FUZZ_REPLAY");
        var replayInput = replay is not null && Path.GetFileName(replay).StartsWith($"probe-fuzz-{name}-", StringComparison.Ordinal) ? File.ReadAllBytes(replay) : null;
        for (var i = replayInput is null ? 0 : -1; i < count; i++)
        {
            var input = i < 0 ? replayInput! : mutator.Mutate(seeds[i % seeds.Count]);
            try
            {
                parse(input);
            }
            catch (BadInputException e)
            {
                Assert.False(string.IsNullOrWhiteSpace(e.Message), "bad-input errors must say what was wrong");
                Assert.DoesNotContain('\n', e.OneLine);
                rejected++;
            }
            catch (Exception e)
            {
                var saved = Path.Combine(Path.GetTempPath(), $"probe-fuzz-{name}-{i}.bin");
                File.WriteAllBytes(saved, input);
                Assert.Fail($"{name}: mutation {i} threw {e.GetType().Name}: {e.Message} (input saved to {saved})\n{e.StackTrace}");
            }
        }

        Summarize(name, count, rejected, clock.Elapsed);
        return rejected;
    }

    // string.GetHashCode differs between processes; the mutations must not.
    private static int StableHash(string text)
    {
        var hash = 2166136261u;
        foreach (var c in text)
        {
            hash = (hash ^ c) * 16777619u;
        }

        return (int)hash;
    }

    // The full run (scripts/fuzz.sh) sets PROBE_FUZZ_REPORT to collect one line per parser.
    private static void Summarize(string name, int count, int rejected, TimeSpan elapsed)
    {
        var report = Environment.GetEnvironmentVariable("PROBE_FUZZ_REPORT");
        if (!string.IsNullOrEmpty(report))
        {
            lock (typeof(FuzzRunner))
            {
                File.AppendAllText(report, string.Create(System.Globalization.CultureInfo.InvariantCulture,
                    $"{name}\tinputs {count}\trejected {rejected}\tseconds {elapsed.TotalSeconds:0.0}\n"));
            }
        }
    }
}
