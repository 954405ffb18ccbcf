using System.Diagnostics;
using System.Globalization;
using System.Text;
using System.Text.Json;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Files;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.Phases.Driver;

namespace SqlWaitProbe.Phases;

/// <summary>Writes a phase's driver-side files: <c>executions.csv</c>, <c>sessions.csv</c>, <c>series.csv</c>, <c>overhead.json</c>.</summary>
public static class PhaseFiles
{
    /// <summary>
    /// Writes <c>executions.csv</c>: every execution that started inside the phase's window (<paramref name="windowStart"/>
    /// to <paramref name="windowEnd"/>, Stopwatch timestamps), with start and end in ms since the window opened; one still
    /// running at the window's end keeps its real end, after the window. Returns the window's length in ms as written
    /// for the manifest, and the executions counted (<see cref="ExecutionTally"/>) from the very numbers written, which
    /// analysis reads back.
    /// </summary>
    public static (double WindowMs, ExecutionCounts Counts) WriteExecutions(PhaseContext phase, IReadOnlyList<ExecutionBuffer> buffers, long windowStart, long windowEnd)
    {
        var windowMs = double.Parse(Ms(windowEnd - windowStart), CultureInfo.InvariantCulture);
        var tally = new ExecutionTally(windowMs);
        WriteAtomically(PathOf(phase, BundlePaths.Executions(phase.Name)), writer =>
        {
            writer.Write(BundleColumns.Header(BundleColumns.Executions.All) + "\n");
            for (var s = 0; s < buffers.Count; s++)
            {
                var session = (s + 1).ToString(CultureInfo.InvariantCulture);
                foreach (var e in buffers[s].All())
                {
                    if (e.Start < windowStart || e.Start >= windowEnd)
                    {
                        continue;
                    }

                    var start = Ms(e.Start - windowStart);
                    var end = Ms(e.End - windowStart);
                    tally.Add(double.Parse(start, CultureInfo.InvariantCulture), double.Parse(end, CultureInfo.InvariantCulture), e.Error is not null, e.Cancelled);
                    writer.Write(session);
                    writer.Write(',');
                    writer.Write(start);
                    writer.Write(',');
                    writer.Write(end);
                    writer.Write(',');
                    writer.Write(e.Rows.ToString(CultureInfo.InvariantCulture));
                    writer.Write(',');
                    writer.Write(Csv.Escape(e.Error));
                    writer.Write(e.Cancelled ? ",1\n" : ",\n");
                }
            }
        });
        return (windowMs, tally.Counts());
    }

    /// <summary>Writes <c>sessions.csv</c> from the phase's sessions and the CPU accounting collectors left in the context.</summary>
    public static void WriteSessions(PhaseContext phase)
    {
        WriteAtomically(PathOf(phase, BundlePaths.Sessions(phase.Name)), writer =>
        {
            writer.Write(BundleColumns.Header(BundleColumns.Sessions.All) + "\n");
            foreach (var s in phase.AllSessions())
            {
                phase.SessionCpu.TryGetValue(s.Session, out var cpu);
                writer.Write(Csv.Line(
                    s.Session.ToString(CultureInfo.InvariantCulture),
                    s.BackendPid?.ToString(CultureInfo.InvariantCulture),
                    s.DbSessionId?.ToString(CultureInfo.InvariantCulture),
                    cpu is null ? null : Csv.Number(cpu.CpuMs),
                    cpu?.RunQueueMs is { } rq ? Csv.Number(rq) : null));
                writer.Write('\n');
            }
        });
    }

    /// <summary>
    /// Adds <c>workload.executions_per_sec</c> (executions ending in each whole UTC second of the window, 0 for a second
    /// in which none ended: a stall shows as one) and writes <c>series.csv</c>.
    /// </summary>
    public static void WriteSeries(PhaseContext phase, IReadOnlyList<ExecutionBuffer> buffers, long windowStart, long windowEnd, DateTime windowStartUtc)
    {
        static DateTime SecondOf(DateTime utc) => new(utc.Ticks - (utc.Ticks % TimeSpan.TicksPerSecond), DateTimeKind.Utc);
        var perSecond = new SortedDictionary<DateTime, long>();
        var windowEndUtc = windowStartUtc + Stopwatch.GetElapsedTime(windowStart, windowEnd);
        for (var second = SecondOf(windowStartUtc); second <= windowEndUtc && windowEnd > windowStart; second = second.AddSeconds(1))
        {
            perSecond[second] = 0;
        }

        foreach (var buffer in buffers)
        {
            foreach (var e in buffer.All())
            {
                if (e.Start < windowStart || e.End > windowEnd)
                {
                    continue;
                }

                var second = SecondOf(windowStartUtc + Stopwatch.GetElapsedTime(windowStart, e.End));
                perSecond[second] = perSecond.GetValueOrDefault(second) + 1;
            }
        }

        foreach (var (second, n) in perSecond)
        {
            phase.Series.Add(second, "workload.executions_per_sec", n);
        }

        WriteAtomically(PathOf(phase, BundlePaths.Series(phase.Name)), writer =>
        {
            writer.Write(BundleColumns.Header(BundleColumns.Series.All) + "\n");
            foreach (var p in phase.Series.Snapshot())
            {
                writer.Write(Csv.Line(Utc(p.Utc), p.Series, Csv.Number(p.Value)));
                writer.Write('\n');
            }
        });
    }

    /// <summary>Writes <c>overhead.json</c>.</summary>
    public static void WriteOverhead(PhaseContext phase, OverheadEstimate overhead) =>
        WriteAtomically(PathOf(phase, BundlePaths.Overhead(phase.Name)), writer => writer.Write(JsonSerializer.Serialize(overhead, ProbeJson.Options)));

    /// <summary>An ISO-8601 UTC time with milliseconds and a <c>Z</c>.</summary>
    public static string Utc(DateTime utc) => utc.ToUniversalTime().ToString("yyyy-MM-dd'T'HH:mm:ss.fff'Z'", CultureInfo.InvariantCulture);

    /// <summary>Writes a file through <see cref="AtomicFile"/>, so a half-written file never looks complete.</summary>
    public static void WriteAtomically(string path, Action<TextWriter> write) => AtomicFile.WriteText(path, write);

    private static string Ms(long ticks) => (ticks * 1000.0 / Stopwatch.Frequency).ToString("0.000", CultureInfo.InvariantCulture);

    // The runner's own files, written after the collectors stopped: unlike a collector's, they are written even when a
    // collector left behind after a signal closed the phase to collectors.
    private static string PathOf(PhaseContext phase, string relative)
    {
        var full = Path.Combine(phase.BundleRoot, relative.Replace('/', Path.DirectorySeparatorChar));
        Directory.CreateDirectory(Path.GetDirectoryName(full)!);
        return full;
    }
}
