using System.CommandLine;
using System.Text.Json;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Check;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.Postgres.Engine;
using SqlWaitProbe.SqlServer.Engine;
using SqlWaitProbe.SqlServer.Connection;

namespace SqlWaitProbe.Cli.Commands;

/// <summary><c>probe check</c>: connects and reports the server version and the permissions a capture needs.</summary>
public static class CheckCommand
{
    // The connection options of check, described for what check does with them.
    private static readonly Option<string> Engine = new("--engine", "-e") { Description = "Engine of the server to check: postgres or sqlserver.", DefaultValueFactory = _ => "postgres" };
    private static readonly Option<string?> Server = new("--server", "-S") { Description = "The server to check (required): a connection string, or (sqlserver) a server name. check connects only to a running server." };
    private static readonly Option<string?> User = new("--user", "-U") { Description = "SQL login whose permissions are checked (sqlserver); without it, integrated authentication." };
    private static readonly Option<string?> PasswordEnv = new("--password-env") { Description = "Name of the environment variable that holds that login's password (never pass a password on the command line)." };
    private static readonly Option<bool> Encrypt = new("--encrypt") { Description = "Require an encrypted connection to the checked server (sqlserver)." };
    private static readonly Option<bool> TrustServerCertificate = new("--trust-server-certificate") { Description = "Trust the checked server's certificate without validation (sqlserver; test servers only)." };
    private static readonly Option<bool> DryRun = new("--dry-run") { Description = "Print the queries check would send (version, permissions, extensions) without connecting." };
    private static readonly Option<string> Format = JsonFormatOption.Create(
        "text, or json for scripts: the server, version, login, ready (true when every required item is there; the exit code says the same) and each item with ok, required, status and fix; with --dry-run, the statements.");

    /// <summary>Builds the command.</summary>
    public static Command Create(IProbeConsole console)
    {
        var command = new Command("check", "Connect to a server and report its version and whether the probe's permissions (VIEW SERVER STATE, ALTER ANY EVENT SESSION, …) or extensions are there.");
        foreach (var option in new Option[]
                 {
                     Engine, Server, User, PasswordEnv, Encrypt,
                     TrustServerCertificate, DryRun, Format,
                 })
        {
            command.Options.Add(option);
        }

        command.SetAction((parse, ct) => CommandRunner.RunAsync(console, parse, ct, async token =>
        {
            SqlClientCulture.UseInvariant();
            var engine = parse.GetValue(Engine)?.ToLowerInvariant();
            var server = parse.GetValue(Server) ?? throw new BadInputException("probe check needs --server");
            var dryRun = parse.GetValue(DryRun);
            var json = parse.GetValue(Format) == "json";
            var passwordEnv = parse.GetValue(PasswordEnv);
            var password = passwordEnv is null ? null : Environment.GetEnvironmentVariable(passwordEnv)
                ?? throw new BadInputException($"--password-env: the environment variable {passwordEnv} is not set");
            switch (engine)
            {
                case "sqlserver":
                {
                    var user = parse.GetValue(User);
                    var settings = new SqlServerConnectionSettings
                    {
                        Server = server,
                        User = user,
                        Password = password ?? (user is null || dryRun ? null : PromptOrFail(console, user)),
                        Encrypt = parse.GetValue(Encrypt),
                        TrustServerCertificate = parse.GetValue(TrustServerCertificate),
                        RunId = "check" + Guid.NewGuid().ToString("N")[..6],
                    };
                    if (dryRun)
                    {
                        if (json)
                        {
                            return WriteJson(console, SqlServerServerCheck.Plan(settings));
                        }

                        SqlServerServerCheck.WriteDryRun(settings, console.Out);
                        return 0;
                    }

                    return json ? WriteJson(console, await SqlServerServerCheck.CheckAsync(settings, token)) : await SqlServerServerCheck.RunAsync(settings, console.Out, token);
                }

                case "postgres":
                {
                    var connectionString = PostgresServerCheck.ConnectionString(server, password);
                    if (dryRun)
                    {
                        if (json)
                        {
                            return WriteJson(console, PostgresServerCheck.Plan(connectionString));
                        }

                        PostgresServerCheck.WriteDryRun(connectionString, console.Out);
                        return 0;
                    }

                    return json ? WriteJson(console, await PostgresServerCheck.CheckAsync(connectionString, token)) : await PostgresServerCheck.RunAsync(connectionString, console.Out, token);
                }

                default:
                    throw new BadInputException($"--engine '{engine}' is not known; use postgres or sqlserver");
            }
        }));
        return command;
    }

    private static int WriteJson(IProbeConsole console, ServerCheckPlan plan)
    {
        console.Out.Write(JsonSerializer.Serialize(new { plan.Engine, plan.Server, DryRun = true, plan.Statements, plan.Note }, ProbeJson.Options) + "\n");
        return 0;
    }

    private static int WriteJson(IProbeConsole console, ServerCheckReport report)
    {
        console.Out.Write(JsonSerializer.Serialize(
            new { report.Engine, report.Server, report.Version, report.VersionText, report.Login, report.Ready, report.Items, report.Notes }, ProbeJson.Options) + "\n");
        return report.Ready ? 0 : 1;
    }

    private static string PromptOrFail(IProbeConsole console, string user) => console.IsInputRedirected
        ? throw new BadInputException($"--user {user} needs a password: name an environment variable with --password-env")
        : ConsolePrompt.ReadSecret(console, $"Password for {user}: ");
}
