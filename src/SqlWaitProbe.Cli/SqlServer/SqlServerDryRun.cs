using SqlWaitProbe.Core.Capture;
using SqlWaitProbe.SqlServer.Capture;
using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Connection;

namespace SqlWaitProbe.Cli.SqlServer;

/// <summary>
/// <c>--dry-run</c>: runs the capture's own code against recording sinks, so the statements listed are
/// exactly those a capture sends, in order, without connecting anywhere.
/// </summary>
public static class SqlServerDryRun
{
    /// <summary>Records every statement of the capture described by <paramref name="request"/>.</summary>
    public static async Task<IReadOnlyList<SqlStatement>> RecordAsync(SqlServerCaptureRequest request, CancellationToken cancellationToken)
    {
        var recorder = new RecordingSqlSink("control");
        var factory = new SqlServerConnectionFactory(request.Connection);
        recorder.Note($"connect to {factory.DataSource} as Application Name {request.Connection.ApplicationName}"
            + (request.Capture.Attach ? " (attach mode: master only, no database created)" : $"; workload connections use database {factory.WorkloadDatabase} with Pooling=false"));
        var capture = new SqlServerCapture(request.Capture,
            (label, _, _) => Task.FromResult<ISqlCommandSink>(label == "control" ? recorder : recorder.ForConnection(label)),
            factory.DataSource, factory.WorkloadDatabase);
        await using (capture)
        {
            await capture.PrepareAsync(new Progress<string>(), cancellationToken);
            foreach (var plan in request.Plan.Phases)
            {
                recorder.Note($"phase {plan.Name}: {(request.Capture.Attach ? "no workload" : $"{plan.Threads} session(s)")}");
                var sessions = new List<IWorkloadSession>();
                if (capture.Target is { } target)
                {
                    sessions.Add(await target.OpenSessionAsync(1, cancellationToken));
                    if (plan.Threads > 1)
                    {
                        recorder.Note($"sessions 2..{plan.Threads} open their own connections and send the same statements as session 1");
                    }
                }

                var phase = new PhaseContext(plan.Name, plan.Threads, Path.GetTempPath(), sessions.Select(s => s.Info).ToArray());
                var collectors = capture.CollectorsFor(phase);
                foreach (var collector in collectors)
                {
                    await collector.StartAsync(phase, cancellationToken);
                }

                foreach (var session in sessions)
                {
                    await session.ExecuteAsync(cancellationToken);
                    recorder.Note(request.Plan.Iterations is { } n
                        ? $"each session repeats the workload query {n} times"
                        : $"each session repeats the workload query until {request.Plan.Duration!.Value.TotalSeconds:0.###} s have passed");
                    await session.DisposeAsync();
                }

                if (request.Capture.Attach)
                {
                    recorder.Note($"wait {request.Plan.Duration!.Value.TotalSeconds:0.###} s while the existing workload runs");
                }

                foreach (var collector in collectors)
                {
                    await collector.StopAsync(phase, cancellationToken);
                }
            }
        }

        return recorder.Statements;
    }

    /// <summary>Prints the statements, then the OS collectors.</summary>
    public static void Print(SqlServerCaptureRequest request, IReadOnlyList<SqlStatement> statements, TextWriter output)
    {
        output.WriteLine($"-- probe capture --engine sqlserver dry run: {statements.Count(s => s.Purpose != "note")} statements, in the order a capture sends them; nothing was sent.");
        var n = 0;
        foreach (var statement in statements)
        {
            if (statement.Purpose == "note")
            {
                output.WriteLine(statement.Text);
                continue;
            }

            n++;
            output.WriteLine($"-- {n}. {statement.Purpose}{(statement.Database is null ? "" : $" (in database {statement.Database})")}");
            output.WriteLine(statement.Text.TrimEnd());
            output.WriteLine("GO");
        }

        output.WriteLine();
        output.WriteLine("OS collectors on this machine:");
        var factory = new SqlServerConnectionFactory(request.Connection);
        foreach (var line in OsCollectorPlan.Describe(request.Cpu, request.SampleHz, OsCollectorPlan.IsLocal(factory.DataSource)))
        {
            output.WriteLine("  " + line);
        }
    }
}
