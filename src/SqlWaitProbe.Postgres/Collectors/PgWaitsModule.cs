using SqlWaitProbe.Analysis;
using SqlWaitProbe.Analysis.Input;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Options;

namespace SqlWaitProbe.Postgres.Collectors;

/// <summary>
/// The sessions' waits, from <c>pg_wait_sampling</c> or by sampling <c>pg_stat_activity</c>: totals into <c>waits.csv</c>
/// (shared with the other engine's wait collector) and every sample into <c>wait_samples.csv</c>; in attach mode also
/// every poll of the watched backends and their blockers (<c>activity.csv</c>) and each backend's states as they came and
/// went (<c>session_states.csv</c>). It reads these back so the ledger can tell waits inside each session's executions
/// or busy time, and who blocked whom.
/// </summary>
public sealed class PgWaitsModule : IEngineCollectorModule<PostgresRun>, IAnalysisModule
{
    /// <inheritdoc />
    public string Name => "pg-waits";

    /// <inheritdoc />
    public IReadOnlyList<IOptionSpec> Options => [];

    /// <inheritdoc />
    public bool Runs(PostgresRun run) => true;

    /// <inheritdoc />
    public ICollector Create(PostgresRun run, PhaseContext phase) => new PgWaitsCollector(run.Connection, run.HasWaitSampling, run.HasQueryIdColumn, run.Attach)
    {
        QuietAutoExplain = run.AutoExplain is not null,
    };

    /// <inheritdoc />
    public PhaseData Read(PhaseData phase, CaptureBundle bundle, CancellationToken cancellationToken)
    {
        var activity = phase.IsAttachWindow ? ReadAttachActivity(bundle, BundlePaths.Activity(phase.Name)) : null;
        return phase with
        {
            WaitSamples = ReadWaitSamples(bundle, BundlePaths.WaitSamples(phase.Name)) ?? phase.WaitSamples,
            SessionStates = ReadSessionStates(bundle, BundlePaths.SessionStates(phase.Name)) ?? phase.SessionStates,
            Blocked = activity?.Blocked ?? phase.Blocked,
            Polls = activity?.Polls ?? phase.Polls,
        };
    }

    private static List<WaitSample>? ReadWaitSamples(CaptureBundle bundle, string relative)
    {
        using var csv = CsvFile.Open(bundle, relative, BundleColumns.WaitSamples.Ms, BundleColumns.WaitSamples.Session, BundleColumns.WaitSamples.WaitType, BundleColumns.WaitSamples.WaitMs);
        if (csv is null)
        {
            return null;
        }

        var rows = new List<WaitSample>();
        while (csv.Read())
        {
            rows.Add(new WaitSample(csv.Number(BundleColumns.WaitSamples.Ms), csv.OptionalNumber(BundleColumns.WaitSamples.Session) is { } s ? (int)s : null, string.Intern(csv.Text(BundleColumns.WaitSamples.WaitType)), csv.Number(BundleColumns.WaitSamples.WaitMs)));
        }

        return rows;
    }

    private static (List<SessionPoll> Polls, List<BlockedSample> Blocked)? ReadAttachActivity(CaptureBundle bundle, string relative)
    {
        using var csv = CsvFile.Open(bundle, relative, BundleColumns.Activity.Ms, BundleColumns.Activity.Session, BundleColumns.Activity.Pid, BundleColumns.Activity.State, BundleColumns.Activity.BlockedBy, BundleColumns.Activity.SampleMs);
        if (csv is null)
        {
            return null;
        }

        // The rows of one poll share its ms and follow each other: a blocker's row is found among its waiter's poll.
        var found = new List<BlockedSample>();
        var polls = new List<SessionPoll>();
        var poll = new List<(int? Session, string Pid, string State, string BlockedBy, double SampleMs)>();
        double pollMs = double.NaN;
        void Flush()
        {
            foreach (var (session, _, _, blockedBy, sampleMs) in poll)
            {
                if (session is not { } waiter || blockedBy.Length == 0)
                {
                    continue;
                }

                foreach (var pid in blockedBy.Split(' ', StringSplitOptions.RemoveEmptyEntries))
                {
                    var blocker = poll.FirstOrDefault(r => r.Pid == pid);
                    found.Add(new BlockedSample(pollMs, waiter, pid, blocker.Pid is null ? null : blocker.Session, blocker.Pid is null ? null : blocker.State, sampleMs));
                }
            }

            poll.Clear();
        }

        while (csv.Read())
        {
            var ms = csv.Number(BundleColumns.Activity.Ms);
            if (ms != pollMs)
            {
                Flush();
                pollMs = ms;
            }

            var session = csv.OptionalNumber(BundleColumns.Activity.Session) is { } s ? (int?)s : null;
            var sampleMs = csv.Count(BundleColumns.Activity.SampleMs);
            poll.Add((session, string.Intern(csv.Text(BundleColumns.Activity.Pid)), string.Intern(csv.Text(BundleColumns.Activity.State)), csv.Text(BundleColumns.Activity.BlockedBy), sampleMs));
            if (session is { } watched)
            {
                polls.Add(new SessionPoll(watched, ms, csv.Text(BundleColumns.Activity.WaitType) is { Length: > 0 } w ? string.Intern(w) : null, sampleMs));
            }
        }

        Flush();
        return (polls, found);
    }

    private static List<SessionStateStretch>? ReadSessionStates(CaptureBundle bundle, string relative)
    {
        using var csv = CsvFile.Open(bundle, relative, BundleColumns.SessionStates.Session, BundleColumns.SessionStates.State, BundleColumns.SessionStates.StartMs, BundleColumns.SessionStates.EndMs);
        if (csv is null)
        {
            return null;
        }

        var rows = new List<SessionStateStretch>();
        while (csv.Read())
        {
            var start = csv.Number(BundleColumns.SessionStates.StartMs);
            var end = csv.Number(BundleColumns.SessionStates.EndMs);
            if (end < start)
            {
                throw new BadInputException($"end_ms {end} is before start_ms {start}", relative, csv.LineNumber);
            }

            rows.Add(new SessionStateStretch((int)csv.Number(BundleColumns.SessionStates.Session), string.Intern(csv.Text(BundleColumns.SessionStates.State)), start, end));
        }

        return rows;
    }
}
