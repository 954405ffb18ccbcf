using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// A connection a real PostgreSQL turns down (scram-sha-256 over TCP): a wrong password, none at all, a database or a
/// role the server does not know, a port nothing listens on. Each is exit 1 with one line on stderr that says what
/// failed and what to do, for <c>probe check</c> and for an attach capture alike, and never repeats the password.
/// </summary>
[Collection(ScramServerCollection.Name)]
public sealed class PostgresConnectFailureTests(ScramPostgresFixture server)
{
    private const string PasswordVariable = "PROBE_TEST_CONNECT_PASSWORD";
    private const string WrongPassword = "Wr0ng-pass-9931";

    public static TheoryData<string> Cases() => ["wrong-password", "no-password", "missing-database", "unknown-role", "refused"];

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task A_refused_connection_is_exit_1_with_one_line_naming_the_cause_and_the_fix(string @case)
    {
        var (text, environment, expected, fix) = @case switch
        {
            "wrong-password" => (Tcp("postgres"), new Dictionary<string, string> { [PasswordVariable] = WrongPassword },
                "password authentication failed", $"Check the password of role {ScramPostgresFixture.Login} (--password-env names the variable that holds it)"),
            "no-password" => (Tcp("postgres"), new Dictionary<string, string>(),
                $"the server asks role {ScramPostgresFixture.Login} for a password and none was given", "--password-env VARIABLE"),
            "missing-database" => (Tcp("nosuchdb"), new Dictionary<string, string> { [PasswordVariable] = ScramPostgresFixture.Password },
                "database \"nosuchdb\" does not exist", "psql -l lists them"),
            // The local socket is trusted, so the server tells that the role does not exist (over TCP scram would hide it).
            "unknown-role" => ($"host={server.Server.SocketFolder} port={server.Port} user=nosuchrole dbname=postgres", new Dictionary<string, string>(),
                "role \"nosuchrole\" does not exist", "Check the role name"),
            "refused" => ("host=127.0.0.1 port=1 user=x dbname=postgres", new Dictionary<string, string>(),
                "nothing accepts connections at 127.0.0.1 port 1 (connection refused)", "Check the host and port in --server"),
            _ => throw new ArgumentOutOfRangeException(nameof(@case)),
        };
        string[] passwordEnv = environment.Count > 0 ? ["--password-env", PasswordVariable] : [];
        var bundle = Path.Combine(TestData.TempFolder("connect-failure"), "bundle");
        string[][] runs =
        [
            ["check", "--engine", "postgres", "--server", text, .. passwordEnv],
            ["capture", "--engine", "postgres", "--server", text, .. passwordEnv, "--attach", "--duration", "2s", "-o", bundle],
        ];
        foreach (var args in runs)
        {
            using var probe = ProbeProcess.Start(environment, args);
            var (exit, stdout, stderr) = await probe.WaitAsync(TimeSpan.FromMinutes(2));
            // The capture's progress line (what it captures, where) may come first; the error is one line of its own.
            var errors = stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries).Where(l => l.StartsWith("probe: ", StringComparison.Ordinal)).ToArray();
            Assert.True(exit == 1, $"{args[0]}: exit {exit}: {stderr}");
            Assert.True(errors.Length == 1, $"{args[0]}: {stderr}");
            Assert.Contains(expected, errors[0]);
            Assert.Contains(fix, errors[0]);
            Assert.DoesNotContain("   at ", stderr);
            Assert.DoesNotContain(WrongPassword, stdout + stderr);
            Assert.DoesNotContain(ScramPostgresFixture.PasswordStem, stdout + stderr);
        }
    }

    private string Tcp(string database) => $"host=127.0.0.1 port={server.Port} user={ScramPostgresFixture.Login} dbname={database}";
}
