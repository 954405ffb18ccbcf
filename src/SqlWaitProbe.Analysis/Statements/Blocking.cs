namespace SqlWaitProbe.Analysis.Statements;

/// <summary>
/// Head blockers from the sessions' samples: a watched session waiting behind others is followed, at the same poll,
/// along whom those wait behind until a session that waits behind nobody; the waiter's sample time is that head's
/// cost (split evenly when a wait leads to several heads).
/// </summary>
public static class Blocking
{
    /// <summary>The head blockers of <paramref name="input"/>, by the session time they cost inside a window of <paramref name="windowMs"/>, largest first.</summary>
    public static IReadOnlyList<HeadBlocker> HeadBlockers(StatementInput input, double windowMs = double.PositiveInfinity)
    {
        var polls = input.Activity.GroupBy(a => a.Ms);
        var cost = new Dictionary<string, (double Ms, HashSet<int> Blocked, Dictionary<(string? Statement, string State), double> Seen, int? Session)>(StringComparer.Ordinal);
        foreach (var poll in polls)
        {
            var byPid = new Dictionary<string, ActivitySample>(StringComparer.Ordinal);
            foreach (var a in poll)
            {
                byPid.TryAdd(a.Pid, a);
            }

            foreach (var waiter in poll.Where(a => a.Session is not null && a.BlockedBy.Count > 0 && (a.MsInside(windowMs) > 0 || a.SampleMs <= 0)))
            {
                var heads = Heads(waiter, byPid);
                foreach (var head in heads)
                {
                    if (!cost.TryGetValue(head, out var entry))
                    {
                        entry = (0, [], [], null);
                    }

                    var headRow = byPid.GetValueOrDefault(head);
                    var seen = (headRow?.Statement, headRow?.State ?? "not sampled");
                    entry.Seen[seen] = entry.Seen.GetValueOrDefault(seen) + 1;
                    entry.Blocked.Add(waiter.Session!.Value);
                    cost[head] = (entry.Ms + waiter.MsInside(windowMs) / heads.Count, entry.Blocked, entry.Seen, entry.Session ?? headRow?.Session);
                }
            }
        }

        return cost.Select(kv =>
        {
            var (statement, state) = kv.Value.Seen.OrderByDescending(s => s.Value).First().Key;
            var text = statement is null ? "" : input.Texts.GetValueOrDefault(statement) ?? input.Stats?.FirstOrDefault(s => s.Key == statement)?.Text ?? "";
            return new HeadBlocker(kv.Key, kv.Value.Session, statement, text, state, kv.Value.Blocked.Count, kv.Value.Ms);
        }).OrderByDescending(h => h.BlockedMs).ThenBy(h => h.Pid, StringComparer.Ordinal).ToArray();
    }

    private static List<string> Heads(ActivitySample waiter, Dictionary<string, ActivitySample> byPid)
    {
        var heads = new List<string>();
        var seen = new HashSet<string>(StringComparer.Ordinal) { waiter.Pid };
        var queue = new Queue<string>(waiter.BlockedBy);
        while (queue.Count > 0)
        {
            var pid = queue.Dequeue();
            if (!seen.Add(pid))
            {
                continue;
            }

            if (byPid.TryGetValue(pid, out var row) && row.BlockedBy.Count > 0)
            {
                foreach (var next in row.BlockedBy)
                {
                    queue.Enqueue(next);
                }
            }
            else
            {
                heads.Add(pid);
            }
        }

        return heads;
    }
}
