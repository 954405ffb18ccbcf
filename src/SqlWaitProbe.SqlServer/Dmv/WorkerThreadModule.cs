using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.SqlServer.Engine;

namespace SqlWaitProbe.SqlServer.Dmv;

/// <summary>
/// With <c>--offcpu on</c>, which OS thread runs each workload session's tasks, polled so the ETW context switches of
/// sqlservr (Windows off-CPU stacks) can be booked to sessions; it writes no file of its own.
/// </summary>
public sealed class WorkerThreadModule : IEngineCollectorModule<SqlServerRun>
{
    /// <inheritdoc />
    public string Name => "worker-threads";

    /// <inheritdoc />
    public IReadOnlyList<IOptionSpec> Options => [];

    /// <inheritdoc />
    public bool Runs(SqlServerRun run) => run.Settings.SampleWorkerThreads;

    /// <inheritdoc />
    public ICollector Create(SqlServerRun run, PhaseContext phase) => new WorkerThreadSampler(run.OpenAsync);
}
