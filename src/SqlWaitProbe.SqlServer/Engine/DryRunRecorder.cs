using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Connection;

namespace SqlWaitProbe.SqlServer.Engine;

/// <summary>
/// Runs a capture's own code (<see cref="SqlServerRun"/>, its workload target and collectors) against
/// recording sinks, so the statements listed are exactly those a capture sends, in order, with no connection.
/// </summary>
public static class DryRunRecorder
{
    /// <summary>Records every statement of a capture with these settings and phases.</summary>
    /// <param name="capture">The capture settings.</param>
    /// <param name="connection">The connection settings (only names are used; nothing connects).</param>
    /// <param name="phases">Phases as (name, sessions).</param>
    /// <param name="repeatNote">What repeats during a phase, e.g. "until 30 s have passed".</param>
    /// <param name="cancellationToken">Cancellation.</param>
    /// <param name="assumedMajorVersion">The server version the statements are generated for (16 = SQL Server 2022).</param>
    public static async Task<IReadOnlyList<SqlStatement>> RecordAsync(SqlServerSettings capture, SqlServerConnectionSettings connection,
        IReadOnlyList<(string Name, int Threads)> phases, string repeatNote, CancellationToken cancellationToken, int assumedMajorVersion = 16)
    {
        var recorder = new RecordingSqlSink("control") { AssumedMajorVersion = assumedMajorVersion };
        var factory = new SqlServerConnectionFactory(connection);
        recorder.Note($"connect to {factory.DataSource} as Application Name {connection.ApplicationName}"
            + (capture.Attach ? " (attach mode: master only, no database created)" : $"; workload connections use database {factory.WorkloadDatabase} with Pooling=false"));
        var run = new SqlServerRun(capture,
            (label, _, _) => Task.FromResult<ISqlCommandSink>(label == "control" ? recorder : recorder.ForConnection(label)),
            factory.DataSource, factory.WorkloadDatabase);
        await using (run)
        {
            await run.PrepareAsync(new Progress<string>(), cancellationToken);
            foreach (var (name, threads) in phases)
            {
                recorder.Note($"phase {name}: {(capture.Attach ? "no workload" : $"{threads} session(s)")}");
                var sessions = new List<IWorkloadSession>();
                if (run.Target is { } target)
                {
                    sessions.Add(await target.OpenSessionAsync(1, cancellationToken));
                    if (threads > 1)
                    {
                        recorder.Note($"sessions 2..{threads} open their own connections and send the same statements as session 1");
                    }
                }

                var phase = new PhaseContext(name, threads, Path.GetTempPath(), sessions.Select(s => s.Info).ToArray());
                var collectors = run.CollectorsFor(phase);
                foreach (var collector in collectors)
                {
                    await collector.StartAsync(phase, cancellationToken);
                }

                foreach (var session in sessions)
                {
                    await session.ExecuteAsync(cancellationToken);
                    await session.DisposeAsync();
                }

                recorder.Note(capture.Attach ? $"wait {repeatNote} while the existing workload runs" : $"each session repeats the workload query {repeatNote}");
                foreach (var collector in collectors)
                {
                    await collector.StopAsync(phase, cancellationToken);
                }
            }
        }

        return recorder.Statements;
    }
}
