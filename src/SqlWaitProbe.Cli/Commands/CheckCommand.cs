using System.CommandLine;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Postgres.Capture;
using SqlWaitProbe.SqlServer.Capture;
using SqlWaitProbe.SqlServer.Connection;

namespace SqlWaitProbe.Cli.Commands;

/// <summary><c>probe check</c>: connects and reports the server version and the permissions a capture needs.</summary>
public static class CheckCommand
{
    /// <summary>Builds the command.</summary>
    public static Command Create()
    {
        var command = new Command("check", "Connect to a server and report its version and whether the probe's permissions (VIEW SERVER STATE, ALTER ANY EVENT SESSION, …) or extensions are there.");
        foreach (var option in new Option[]
                 {
                     CaptureOptions.Engine, CaptureOptions.Server, CaptureOptions.User, CaptureOptions.PasswordEnv, CaptureOptions.Encrypt,
                     CaptureOptions.TrustServerCertificate, CaptureOptions.DryRun,
                 })
        {
            command.Options.Add(option);
        }

        command.SetAction((parse, ct) => CommandRunner.RunAsync(parse, ct, async token =>
        {
            SqlClientCulture.UseInvariant();
            var engine = parse.GetValue(CaptureOptions.Engine)?.ToLowerInvariant();
            var server = parse.GetValue(CaptureOptions.Server) ?? throw new BadInputException("probe check needs --server");
            var dryRun = parse.GetValue(CaptureOptions.DryRun);
            var passwordEnv = parse.GetValue(CaptureOptions.PasswordEnv);
            var password = passwordEnv is null ? null : Environment.GetEnvironmentVariable(passwordEnv)
                ?? throw new BadInputException($"--password-env: the environment variable {passwordEnv} is not set");
            switch (engine)
            {
                case "sqlserver":
                {
                    var user = parse.GetValue(CaptureOptions.User);
                    var settings = new SqlServerConnectionSettings
                    {
                        Server = server,
                        User = user,
                        Password = password ?? (user is null || dryRun ? null : PromptOrFail(user)),
                        Encrypt = parse.GetValue(CaptureOptions.Encrypt),
                        TrustServerCertificate = parse.GetValue(CaptureOptions.TrustServerCertificate),
                        RunId = "check" + Guid.NewGuid().ToString("N")[..6],
                    };
                    if (dryRun)
                    {
                        SqlServerServerCheck.WriteDryRun(settings, Console.Out);
                        return 0;
                    }

                    return await SqlServerServerCheck.RunAsync(settings, Console.Out, token);
                }

                case "postgres":
                {
                    var connectionString = PostgresServerCheck.ConnectionString(server, password);
                    if (dryRun)
                    {
                        PostgresServerCheck.WriteDryRun(connectionString, Console.Out);
                        return 0;
                    }

                    return await PostgresServerCheck.RunAsync(connectionString, Console.Out, token);
                }

                default:
                    throw new BadInputException($"--engine '{engine}' is not known; use postgres or sqlserver");
            }
        }));
        return command;
    }

    private static string PromptOrFail(string user) => Console.IsInputRedirected
        ? throw new BadInputException($"--user {user} needs a password: name an environment variable with --password-env")
        : ConsolePrompt.ReadSecret($"Password for {user}: ");
}
