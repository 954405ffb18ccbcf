using SqlWaitProbe.Analysis.Ledger;
using SqlWaitProbe.Core.Waits;
using static SqlWaitProbe.Core.Text.Figures;

namespace SqlWaitProbe.Analysis.Findings.Rules;

/// <summary>
/// <c>client-waits</c>: the server waited for the client: for the next statement inside an open transaction
/// (PostgreSQL <c>Client:ClientRead</c> while idle in transaction) or for the client to read results
/// (<c>Client:ClientWrite</c>, SQL Server <c>ASYNC_NETWORK_IO</c>). The time is the client's, but a transaction held open
/// keeps its locks, so the sessions that held one longest are named.
/// </summary>
public sealed class ClientWaitsRule : CaptureRule
{
    /// <summary>From this share of session time the client's waits are worth a line.</summary>
    public const double InfoShare = 0.05;

    /// <summary>From this share the client, not the server, holds a fifth of the sessions' time: a warning.</summary>
    public const double WarningShare = 0.20;

    /// <summary>Sessions named one by one.</summary>
    public const int NamedSessions = 5;

    /// <inheritdoc/>
    public override string Id => "client-waits";

    /// <inheritdoc/>
    protected override bool JudgesSessionTime => true;

    /// <inheritdoc/>
    protected override Finding? EvaluatePhase(PhaseLedger l, AnalysisResult analysis)
    {
        var waits = l.Waits.Where(w => w.Class == WaitClass.Client).ToArray();
        var seconds = waits.Sum(w => w.Seconds);
        if (l.SessionSeconds <= 0 || seconds / l.SessionSeconds < InfoShare)
        {
            return null;
        }

        var share = seconds / l.SessionSeconds;
        List<string> evidence = [.. waits.Select(w => $"{w.Type}: {F(w.Seconds)} s, {Pct(w.Seconds / l.SessionSeconds)} of session time [{w.Source}]")];
        var idleInTx = l.Attach?.PerSession.Where(s => s.IdleInTransactionMs > 0).OrderByDescending(s => s.IdleInTransactionMs).ToArray() ?? [];
        if (idleInTx.Length > 0)
        {
            evidence.Add($"idle in transaction: {F(l.Attach!.IdleInTransactionMs / 1000)} s in all; "
                + string.Join(", ", idleInTx.Take(NamedSessions).Select(s => $"{s.Name} {F(s.IdleInTransactionMs / 1000)} s ({Pct(s.IdleInTransactionMs / Math.Max(1, s.BusyMs))} of its time in statements and transactions)"))
                + (idleInTx.Length > NamedSessions ? $" and {idleInTx.Length - NamedSessions} more" : "") + " [session_states.csv, sessions.csv]");
        }

        var holding = idleInTx.Length > 0;
        return Create(share >= WarningShare ? Severities.Warning : Severities.Info, l.Phase,
            holding
                ? $"In {l.Phase}, the server waited {Pct(share)} of session time for clients; {idleInTx.Length} session(s) sat idle in transaction ({string.Join(", ", idleInTx.Take(3).Select(s => s.Name))})"
                : $"In {l.Phase}, the server waited {Pct(share)} of session time for clients to send or read ({string.Join(", ", waits.Select(w => w.Type))})",
            [.. evidence],
            holding
                ? "make the client send COMMIT (or the next statement) without pausing inside a transaction; idle_in_transaction_session_timeout ends transactions left open"
                : "look at the client: it reads results or sends statements slowly (network, a busy application thread, row-by-row fetching)");
    }
}
