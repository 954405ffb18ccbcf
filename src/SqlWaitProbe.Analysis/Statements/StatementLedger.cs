using SqlWaitProbe.Analysis.Input;
using SqlWaitProbe.Core.Statements;

namespace SqlWaitProbe.Analysis.Statements;

/// <summary>
/// Each statement's ledger in a phase. Its session time is the watched sessions' samples that ran it (state active)
/// × the time each sample stands for; its waits are those samples that waited, by type. Its CPU is the sessions'
/// measured CPU (session_timeline.csv, read every 100 ms from <c>/proc</c>, 10 ms in attach mode), each reading's CPU
/// split between the statements whose samples on a CPU stand for time in it, in proportion to that time
/// (<see cref="CpuAttribution"/>) — so the CPU is the kernel's, and only the split within one reading rests on samples;
/// in attach mode the CPU while a wait was shown stays inside it. That split's bound (<see cref="StatementRow.CpuErrorMs"/>) is the CPU
/// of readings the statement shared with another, whichever way it went. Without a timeline, a statement's CPU is its
/// on-CPU samples × their time (CPU and run queue together), or the server's own per-statement CPU.
/// </summary>
public static class StatementLedger
{
    /// <summary>The phase's statements, or null when it has no statement files.</summary>
    public static PhaseStatements? Compute(PhaseData phase)
    {
        if (phase.Statements is not { } input)
        {
            return null;
        }

        // Each figure of a statement counts only the window's time, as the phase's ledger does.
        var windowMs = phase.Phase.EndUtc > phase.Phase.StartUtc ? (phase.Phase.EndUtc - phase.Phase.StartUtc).TotalMilliseconds : double.PositiveInfinity;
        var span = new Dictionary<string, double>(StringComparer.Ordinal);
        var samples = 0;
        var waits = new Dictionary<string, Dictionary<string, double>>(StringComparer.Ordinal);
        var onCpuSampled = new Dictionary<string, double>(StringComparer.Ordinal);
        foreach (var a in input.Activity)
        {
            if (a.Session is null || !a.IsActive || a.Statement is not { } key)
            {
                continue;
            }

            var inside = a.MsInside(windowMs);
            if (inside <= 0 && a.SampleMs > 0)
            {
                continue;
            }

            span[key] = span.GetValueOrDefault(key) + inside;
            samples++;
            if (a.WaitType is { } type)
            {
                if (!waits.TryGetValue(key, out var byType))
                {
                    waits[key] = byType = new Dictionary<string, double>(StringComparer.Ordinal);
                }

                byType[type] = byType.GetValueOrDefault(type) + inside;
            }
            else
            {
                onCpuSampled[key] = onCpuSampled.GetValueOrDefault(key) + inside;
            }
        }

        var attribution = phase.SessionTimeline is { } timeline && input.ActivityCaptured ? CpuAttribution.Compute(timeline, input.Activity, phase.AttachMode, windowMs) : null;
        var total = span.Values.Sum();
        var stats = (input.Stats ?? []).ToDictionary(s => s.Key, StringComparer.Ordinal);
        var keys = new HashSet<string>(span.Keys, StringComparer.Ordinal);

        // In a workload run every statement of the counters ran in the probe's sessions (a statement too quick to be
        // sampled still counts); in attach mode the counters cover the whole server, so only the watched sessions'
        // statements are listed.
        if (!phase.AttachMode)
        {
            keys.UnionWith(stats.Keys);
        }

        var rows = new List<StatementRow>();
        foreach (var key in keys)
        {
            stats.TryGetValue(key, out var stat);
            double? cpu = null, runQueue = null, error = 0;
            var source = "";
            if (attribution is not null && span.ContainsKey(key))
            {
                cpu = attribution.CpuMs.GetValueOrDefault(key);
                runQueue = attribution.RunQueueMs.GetValueOrDefault(key);
                error = attribution.ErrorMs.GetValueOrDefault(key);
                source = phase.AttachMode
                    ? "session CPU from /proc every 10 ms, split by the statement's samples; CPU and run queue while a wait was shown are inside the waits"
                    : "session CPU from /proc every 100 ms, split by the statement's samples";
            }
            else if (stat?.CpuMs is { } serverCpu)
            {
                cpu = serverCpu;
                source = "the server's per-statement CPU (all sessions)";
            }
            else if (span.ContainsKey(key))
            {
                cpu = onCpuSampled.GetValueOrDefault(key);
                source = "samples on a CPU or waiting for one × their time";
            }

            rows.Add(new StatementRow
            {
                Key = key,
                QueryId = stat?.QueryId ?? (StatementKey.IsTextKey(key) ? null : key),
                Text = stat is { Text.Length: > 0 } ? stat.Text : input.Texts.GetValueOrDefault(key) ?? "",
                Stats = stat,
                SessionMs = span.GetValueOrDefault(key),
                SessionShare = total > 0 ? span.GetValueOrDefault(key) / total : 0,
                Waits = waits.TryGetValue(key, out var w) ? w.OrderByDescending(kv => kv.Value).Select(kv => (kv.Key, kv.Value)).ToArray() : [],
                CpuMs = cpu,
                RunQueueMs = runQueue,
                CpuErrorMs = error ?? 0,
                CpuSource = source,
                Plan = input.Plans.GetValueOrDefault(key),
            });
        }

        var ordered = rows.OrderByDescending(r => r.SessionMs).ThenByDescending(r => r.Stats?.ElapsedMs ?? 0).ThenBy(r => r.Key, StringComparer.Ordinal).ToArray();
        return new PhaseStatements
        {
            Phase = phase.Name,
            Rows = ordered,
            SessionMs = total,
            CpuOutsideMs = attribution?.OutsideMs ?? 0,
            CpuInWaitsMs = attribution?.InWaitsMs ?? 0,
            ReadingMs = phase.AttachMode ? 10 : 100,
            MeanSampleMs = samples > 0 ? total / samples : 0,
            Samples = samples,
            Blockers = Blocking.HeadBlockers(input, windowMs),
            KeyedByText = span.Count > 0 && span.Keys.All(StatementKey.IsTextKey),
            StatsCaptured = input.Stats is not null,
        };
    }
}
