using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.SqlServer.Engine;

namespace SqlWaitProbe.SqlServer.Dmv;

/// <summary>
/// Attach mode: each watched session's state polled into <c>session_states.csv</c>, so the attach ledger counts a
/// session only while it runs a request or holds a transaction open (<see cref="SessionStateSampler"/>).
/// </summary>
public sealed class SessionStateModule : IEngineCollectorModule<SqlServerRun>
{
    /// <inheritdoc />
    public string Name => "session-states";

    /// <inheritdoc />
    public IReadOnlyList<IOptionSpec> Options => [];

    /// <inheritdoc />
    public bool Runs(SqlServerRun run) => run.Settings.Attach;

    /// <inheritdoc />
    public ICollector Create(SqlServerRun run, PhaseContext phase) => new SessionStateSampler(run.OpenAsync, run.FilterFor);
}
