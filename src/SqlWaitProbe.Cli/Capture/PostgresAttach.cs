using Serilog;
using SqlWaitProbe.Core.Capture;
using SqlWaitProbe.Postgres.Attach;
using SqlWaitProbe.Workload.Capture;

namespace SqlWaitProbe.Cli.Capture;

/// <summary>
/// <c>probe capture --engine postgres --attach</c>: lists the matching client backends once, when the window opens,
/// and watches them with the usual collectors for the duration. Read-only: nothing is created on the server.
/// </summary>
public static class PostgresAttach
{
    /// <summary>Finds the backends and runs the attach window; <paramref name="collectors"/> makes the phase's collectors.</summary>
    public static async Task RunAsync(PostgresCaptureRequest request, string connectionString, Func<PhaseContext, IReadOnlyList<ICollector>> collectors, CaptureManifest manifest, IProgress<string> progress, CancellationToken cancellationToken)
    {
        var filter = request.Attach ?? throw new InvalidOperationException("not an attach request");
        var backends = await filter.FindAsync(connectionString, cancellationToken);
        foreach (var b in backends)
        {
            Log.Information("watching backend {Pid} (database {Database}, role {Role}, application {Application})", b.Pid, b.Database, b.Role, b.Application);
        }

        var watching = backends.Count == 0 ? $"no session matched {filter.Describe()}" : $"{backends.Count} session(s)";
        if (backends.Count == 0)
        {
            Log.Warning("no client backend matched {Filter}: only server-wide evidence (perf, OS counters, pg_stat_database) is captured", filter.Describe());
            progress.Report($"no session matched {filter.Describe()}: capturing server-wide evidence only");
        }

        manifest.Update(m => m with
        {
            Options = new Dictionary<string, string>(m.Options, StringComparer.Ordinal) { ["attach.backend_pids"] = string.Join(",", backends.Select(b => b.Pid)) },
        });
        var sessions = backends.Select((b, i) => new WorkloadSessionInfo(i + 1, b.Pid, null)).ToArray();
        var phase = new PhaseContext(AttachPhase.Name, 0, manifest.Writer.Root, sessions);
        var duration = request.Plan.Duration ?? TimeSpan.FromSeconds(30);
        await AttachPhase.RunAsync(phase, collectors(phase), duration, manifest, progress, watching, null, cancellationToken);
    }
}
