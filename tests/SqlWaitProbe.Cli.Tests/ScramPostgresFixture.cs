using Npgsql;
using SqlWaitProbe.Postgres.Embedded;
using SqlWaitProbe.Core.Runtime;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// A real embedded PostgreSQL set up as a production server would be: a login role with a scram-sha-256 password
/// required over TCP (pg_hba), and a <c>primary_conninfo</c> that carries a replication password in its
/// configuration (<c>ALTER SYSTEM</c>, so <c>postgresql.auto.conf</c>).
/// </summary>
public sealed class ScramPostgresFixture : IAsyncLifetime
{
    /// <summary>The login role.</summary>
    public const string Login = "probe_scram";

    /// <summary>Its password: a space, quotes, ';', '@', ':', '%' and '#', so every quoting and escaping rule is used.</summary>
    public const string Password = "Sc#ram:Pw'7 x;@%";

    /// <summary>A part of <see cref="Password"/> no other text holds, to find a partial leak.</summary>
    public const string PasswordStem = "Sc#ram:Pw";

    /// <summary>The password inside <c>primary_conninfo</c>.</summary>
    public const string ReplicationPassword = "ReplPassw0rd-4471";

    /// <summary>The running server.</summary>
    public EmbeddedPostgres Server { get; private set; } = null!;

    /// <summary>TCP port on 127.0.0.1.</summary>
    public int Port => Server.Port;

    /// <summary>An Npgsql (ADO.NET) connection string over TCP with the password.</summary>
    public string AdoConnectionString => new NpgsqlConnectionStringBuilder
    {
        Host = "127.0.0.1",
        Port = Port,
        Username = Login,
        Password = Password,
        Database = "postgres",
        Timeout = 15,
        Pooling = false,
    }.ConnectionString;

    /// <inheritdoc />
    public async Task InitializeAsync()
    {
        Server = await EmbeddedPostgres.StartAsync(new RunScope("capture", "s" + Guid.NewGuid().ToString("N")[..9]), new EmbeddedPostgresOptions { MaxSessions = 8 }, new Progress<string>(), CancellationToken.None);
        await using (var admin = new NpgsqlConnection(Server.ConnectionString))
        {
            await admin.OpenAsync();
            foreach (var statement in new[]
            {
                "SET password_encryption = 'scram-sha-256'",
                $"CREATE ROLE {Login} LOGIN SUPERUSER PASSWORD '{Password.Replace("'", "''", StringComparison.Ordinal)}'",
                $"ALTER SYSTEM SET primary_conninfo = 'host=primary.example port=5432 user=replicator password={ReplicationPassword} application_name=standby1'",
            })
            {
                await new NpgsqlCommand(statement, admin).ExecuteNonQueryAsync();
            }

            if (!(bool)(await new NpgsqlCommand($"SELECT rolpassword LIKE 'SCRAM-SHA-256$%' FROM pg_authid WHERE rolname = '{Login}'", admin).ExecuteScalarAsync())!)
            {
                throw new InvalidOperationException("the role's password is not stored as scram-sha-256");
            }

            // The local socket stays trusted for this setup; TCP needs the scram password.
            await File.WriteAllTextAsync(Path.Combine(Server.DataFolder, "pg_hba.conf"),
                "local all all trust\nhost all all 127.0.0.1/32 scram-sha-256\nhost all all ::1/128 scram-sha-256\n");
            await new NpgsqlCommand("SELECT pg_reload_conf()", admin).ExecuteNonQueryAsync();
        }

        // The reload is asynchronous: wait until TCP refuses a connection without the password.
        var without = new NpgsqlConnectionStringBuilder(AdoConnectionString) { Password = "wrong" }.ConnectionString;
        for (var i = 0; ; i++)
        {
            try
            {
                await using var probe = new NpgsqlConnection(without);
                await probe.OpenAsync();
            }
            catch (PostgresException e) when (e.SqlState == "28P01")
            {
                break;
            }

            if (i == 50)
            {
                throw new InvalidOperationException("pg_hba.conf with scram-sha-256 did not take effect");
            }

            await Task.Delay(100);
        }

        await using var check = new NpgsqlConnection(AdoConnectionString);
        await check.OpenAsync();
    }

    /// <inheritdoc />
    public async Task DisposeAsync() => await Server.DisposeAsync();
}
