using Microsoft.Data.SqlClient;
using SqlWaitProbe.Analysis.Stacks;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Connection;
using SqlWaitProbe.SqlServer.Engine;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Windows.Etw;
using SqlWaitProbe.Windows.Pdh;

namespace SqlWaitProbe.Windows.Tests;

/// <summary>A short capture of a real SQL Server (LocalDB) hashing in a loop, as the Windows CI job runs it.</summary>
public sealed class LocalDbCaptureTests
{
    private const string HashLoop =
        "DECLARE @i int = 0, @h varbinary(32); " +
        "WHILE @i < 20000 BEGIN SET @h = HASHBYTES('SHA2_256', CAST(@i AS varbinary(8))); SET @i += 1; END";

    [LocalDbFact]
    [Trait("Category", "LocalDb")]
    public async Task Localdb_named_by_its_instance_is_local_after_connecting_and_its_sqlservr_pid_alone_shows_modules_and_cpu()
    {
        if (!OperatingSystem.IsWindows())
        {
            return;
        }

        var instance = Environment.GetEnvironmentVariable(LocalDbFactAttribute.Variable)!;
        var dataSource = $@"(localdb)\{instance}";
        var connectionString = $"Server={dataSource};Integrated Security=true;Connect Timeout=60";
        var root = TestData.TempFolder("probe-localdb");
        try
        {
            // Open the sessions first so LocalDB's sqlservr is running before the counters are added.
            var connections = new List<SqlConnection>();
            for (var i = 0; i < 2; i++)
            {
                var connection = new SqlConnection(connectionString);
                await connection.OpenAsync();
                connections.Add(connection);
            }

            // "(localdb)" names no machine: only what the server says of itself after connecting makes it local, with the
            // pid of its sqlservr, as the capture decides it.
            Assert.False(SqlServerHost.IsLocal(dataSource));
            ServerInfo info;
            var controlConnection = new SqlConnection(connectionString);
            await controlConnection.OpenAsync();
            await using (var control = new SqlConnectionSink(controlConnection))
            {
                info = await SqlServerPreflight.ReadAsync(control, CancellationToken.None);
            }

            var location = SqlServerHost.Locate(dataSource, info.PhysicalMachine, info.ProcessId, Environment.MachineName, SqlServerHost.LocalProcessName);
            Assert.True(location.IsLocal, location.Reason);
            Assert.NotNull(location.ServerPid);

            var etw = new EtwCpuCollector(new EtwCpuSettings { RunId = "localdb-" + Guid.NewGuid().ToString("N")[..8], ServerProcess = "sqlservr", ServerPid = location.ServerPid });
            var pdh = new PdhCounterCollector("sqlservr", location.ServerPid);
            var phase = new PhaseContext("load", connections.Count, root, []);
            await etw.StartAsync(phase, CancellationToken.None);
            await pdh.StartAsync(phase, CancellationToken.None);
            phase.StartUtc = DateTime.UtcNow;
            var until = DateTime.UtcNow.AddSeconds(4);
            await Task.WhenAll(connections.Select(async connection =>
            {
                while (DateTime.UtcNow < until)
                {
                    await using var command = new SqlCommand(HashLoop, connection) { CommandTimeout = 60 };
                    await command.ExecuteNonQueryAsync();
                }
            }));
            phase.EndUtc = DateTime.UtcNow;
            var pdhOutcome = await pdh.StopAsync(phase, CancellationToken.None);
            var etwOutcome = await etw.StopAsync(phase, CancellationToken.None);
            foreach (var connection in connections)
            {
                await connection.DisposeAsync();
            }

            Assert.True(etwOutcome.Status is CollectorStatus.Ok or CollectorStatus.Partial, $"{etwOutcome.Status}: {etwOutcome.Error}");
            Assert.True(pdhOutcome.Status is CollectorStatus.Ok or CollectorStatus.Partial, $"{pdhOutcome.Status}: {pdhOutcome.Error}");

            var profile = new StackProfile();
            using (var reader = new StreamReader(Path.Combine(root, BundlePaths.Stacks("load"))))
            {
                FoldedStackFormat.ReadInto(reader, "stacks.folded", profile, firstFrameIsProcess: true);
            }

            var modules = ModuleShares.Compute(profile, "sqlservr").Select(s => s.Module).ToHashSet();
            Assert.Contains("sqldk", modules);
            Assert.Contains("sqllang", modules);
            Assert.True(profile.Entries.Where(e => e.Process == "sqlservr").Sum(e => e.Weight) > 1000, "two hashing sessions for 4 s should give sqlservr thousands of samples");
            var pids = File.ReadAllLines(Path.Combine(root, BundlePaths.Processes("load"))).Skip(1).Select(l => l.Split(',')[0]);
            Assert.Equal([location.ServerPid!.Value.ToString(System.Globalization.CultureInfo.InvariantCulture)], pids);

            // The runner writes series.csv once the phase has stopped; the collector hands its rows to the phase.
            var serverCpu = phase.Series.Snapshot().Where(p => p.Series == "server.cpu.user_pct").Select(p => p.Value).ToArray();
            Assert.NotEmpty(serverCpu);
            Assert.True(serverCpu.Max() > 0, "sqlservr should show user CPU while hashing");
        }
        finally
        {
            Directory.Delete(root, recursive: true);
        }
    }
}
