using System.Globalization;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.SqlServer.Dmv;

/// <summary>Writes a phase's DMV data: <c>dmv/*.csv</c> deltas and raw snapshots and <c>waits.csv</c>; session CPU and per-second series go into the phase context (the runner writes <c>sessions.csv</c> and <c>series.csv</c>).</summary>
public static class DmvBundleWriter
{
    /// <summary>Counters turned into per-second series (<c>db.&lt;name&gt;</c>).</summary>
    private static readonly Dictionary<string, string> SeriesCounters = new(StringComparer.OrdinalIgnoreCase)
    {
        ["Batch Requests/sec"] = "db.batch_requests_per_sec",
        ["SQL Compilations/sec"] = "db.sql_compilations_per_sec",
        ["Page lookups/sec"] = "db.page_lookups_per_sec",
        ["Latch Waits/sec"] = "db.latch_waits_per_sec",
        ["Memory Grants Pending"] = "db.memory_grants_pending",
        ["Memory Grants Outstanding"] = "db.memory_grants_outstanding",
        ["Lock Requests/sec"] = "db.lock_requests_per_sec",
    };

    /// <summary>Writes every file for the phase; <paramref name="sessionScope"/> says whether session waits are the workload's (else server waits feed the series).</summary>
    public static void Write(PhaseContext phase, DmvPhaseData data, bool sessionScope)
    {
        var folder = BundlePaths.Dmv(phase.Name);
        foreach (var (name, snapshots) in data.Snapshots)
        {
            var def = snapshots[0].Definition;
            var deltas = DmvDelta.Over(snapshots);
            var header = BundleColumns.Header(BundleColumns.Dmv.DeltaHeader(def.Keys, def.Counters, def.Gauges));
            BundleCsv.Write(phase.PathFor($"{folder}/{name}.csv"), header, deltas.Select(d => Csv.Line(
                [.. KeyParts(d.Key, def), .. d.Deltas.Select(Csv.Number), .. d.GaugeStart.Select(Csv.Number), .. d.GaugeEnd.Select(Csv.Number), Csv.Number(d.Restarts)])));
            BundleCsv.Write(phase.PathFor($"{folder}/snapshots/{name}.csv"), BundleColumns.Header(BundleColumns.Dmv.SnapshotHeader(def.Keys, def.Values)),
                snapshots.SelectMany(s => s.Rows.Select(r => Csv.Line([BundleCsv.Utc(s.Utc), .. KeyParts(r.Key, def), .. r.Value.Select(Csv.Number)]))));
        }

        WriteCounters(phase, folder, data);
        WriteWaits(phase, data);
        WriteSessions(phase, data, sessionScope);
        WriteSeries(phase, data, sessionScope);
    }

    private static string[] KeyParts(string key, DmvDefinition def) => def.Keys.Count == 0 ? [] : key.Split(DmvSnapshot.KeySeparator);

    private static void WriteCounters(PhaseContext phase, string folder, DmvPhaseData data)
    {
        if (data.Counters.Count < 2)
        {
            return;
        }

        var (t0, first) = data.Counters[0];
        var (t1, last) = data.Counters[^1];
        var values = PerformanceCounterMath.Compute(first, last, (t1 - t0).TotalSeconds);
        BundleCsv.Write(phase.PathFor($"{folder}/performance_counters.csv"), BundleColumns.Header(BundleColumns.Dmv.PerformanceCounters.All),
            values.Select(v => Csv.Line(v.ObjectName, v.CounterName, v.InstanceName, v.Type.ToString(CultureInfo.InvariantCulture), v.Kind, Csv.Number(v.Value), v.Restarted ? "1" : "0")));
    }

    private static void WriteWaits(PhaseContext phase, DmvPhaseData data)
    {
        var lines = new List<string>();
        foreach (var (name, scope) in new[] { ("session_wait_stats", "session"), ("wait_stats", "server") })
        {
            if (!data.Snapshots.TryGetValue(name, out var snapshots))
            {
                continue;
            }

            var def = snapshots[0].Definition;
            var typeIndex = def.Keys.ToList().IndexOf(BundleColumns.Dmv.WaitStats.WaitType);
            var byType = DmvDelta.Over(snapshots)
                .GroupBy(d => d.KeyParts[typeIndex])
                .Select(g => (Type: g.Key, Tasks: g.Sum(d => d.Deltas[0]), Wait: g.Sum(d => d.Deltas[1]), Signal: g.Sum(d => d.Deltas[2])))
                .Where(w => w.Wait > 0 || w.Tasks > 0)
                .OrderByDescending(w => w.Wait);
            lines.AddRange(byType.Select(w => Csv.Line(scope, w.Type, WaitCategories.Of(w.Type), Csv.Number(w.Wait), Csv.Number(w.Signal), Csv.Number(w.Tasks))));
        }

        BundleCsv.Write(phase.PathFor(BundlePaths.Waits(phase.Name)), BundleColumns.Header(BundleColumns.Waits.All), lines);
    }

    private static void WriteSessions(PhaseContext phase, DmvPhaseData data, bool sessionScope)
    {
        if (!data.Snapshots.TryGetValue("session_cpu", out var snapshots))
        {
            return;
        }

        // A session id that a new connection took over during the phase has two rows (two login times): both are its CPU.
        var bySessionId = DmvDelta.Over(snapshots)
            .GroupBy(d => int.Parse(d.KeyParts[0], CultureInfo.InvariantCulture))
            .Select(g => (Id: g.Key, CpuMs: g.Sum(d => d.Deltas[0])));
        if (sessionScope)
        {
            // Workload runs: the runner writes sessions.csv from the context, keyed by driver session.
            var bySpid = phase.Sessions.Where(s => s.DbSessionId is not null).ToDictionary(s => s.DbSessionId!.Value, s => s.Session);
            foreach (var (id, cpuMs) in bySessionId)
            {
                if (bySpid.TryGetValue(id, out var session))
                {
                    phase.SessionCpu[session] = new SessionCpuTime(cpuMs, null);
                }
            }

            return;
        }

        // Attach mode: no driver sessions; each observed session is listed by its session id (the runner writes sessions.csv).
        foreach (var (id, cpuMs) in bySessionId)
        {
            phase.ObserveSession(new WorkloadSessionInfo(id, null, id), new SessionCpuTime(cpuMs, null));
        }
    }

    private static void WriteSeries(PhaseContext phase, DmvPhaseData data, bool sessionScope)
    {
        if (data.Snapshots.TryGetValue(sessionScope ? "session_wait_stats" : "wait_stats", out var waits))
        {
            var def = waits[0].Definition;
            var typeIndex = def.Keys.ToList().IndexOf(BundleColumns.Dmv.WaitStats.WaitType);
            for (var i = 1; i < waits.Count; i++)
            {
                var seconds = (waits[i].Utc - waits[i - 1].Utc).TotalSeconds;
                if (seconds <= 0)
                {
                    continue;
                }

                foreach (var g in DmvDelta.Between(waits[i - 1], waits[i]).GroupBy(d => d.KeyParts[typeIndex]))
                {
                    var ms = g.Sum(d => d.Deltas[1]);
                    if (ms > 0 && WaitCategories.Of(g.Key) != "Idle")
                    {
                        phase.Series.Add(waits[i].Utc, "wait." + g.Key, ms / seconds);
                    }
                }
            }
        }

        for (var i = 1; i < data.Counters.Count; i++)
        {
            var seconds = (data.Counters[i].Utc - data.Counters[i - 1].Utc).TotalSeconds;
            foreach (var v in PerformanceCounterMath.Compute(data.Counters[i - 1].Rows, data.Counters[i].Rows, seconds))
            {
                if (SeriesCounters.TryGetValue(v.CounterName, out var series) && (v.InstanceName.Length == 0 || v.InstanceName == "_Total"))
                {
                    phase.Series.Add(data.Counters[i].Utc, series, v.Value);
                }
            }
        }
    }
}
