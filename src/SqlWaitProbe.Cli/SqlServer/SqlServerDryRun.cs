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
    public static Task<IReadOnlyList<SqlStatement>> RecordAsync(SqlServerCaptureRequest request, CancellationToken cancellationToken)
    {
        var repeat = request.Capture.Attach
            ? $"{request.Plan.Duration!.Value.TotalSeconds:0.###} s"
            : request.Plan.Iterations is { } n ? $"{n} times" : $"until {request.Plan.Duration!.Value.TotalSeconds:0.###} s have passed";
        return DryRunRecorder.RecordAsync(request.Capture, request.Connection, request.Plan.Phases.Select(p => (p.Name, p.Threads)).ToList(), repeat, cancellationToken);
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
