using System.CommandLine;
using Npgsql;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Cli.SqlServer;
using SqlWaitProbe.Core.Errors;
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
                    var factory = new SqlServerConnectionFactory(settings);
                    if (dryRun)
                    {
                        Console.Out.WriteLine($"-- probe check --engine sqlserver dry run: would connect to {factory.DataSource} (database master, Application Name {settings.ApplicationName}) and send:");
                        foreach (var statement in ServerCheck.SqlServerStatements)
                        {
                            Console.Out.WriteLine($"-- {statement.Purpose}");
                            Console.Out.WriteLine(statement.Text.TrimEnd());
                            Console.Out.WriteLine("GO");
                        }

                        return 0;
                    }

                    return await ServerCheck.SqlServerAsync(settings, Console.Out, token);
                }

                case "postgres":
                {
                    NpgsqlConnectionStringBuilder builder;
                    try
                    {
                        builder = new NpgsqlConnectionStringBuilder(server);
                    }
                    catch (Exception e) when (e is ArgumentException or FormatException)
                    {
                        throw new BadInputException("--server is not a valid PostgreSQL connection string (e.g. 'Host=db1;Username=me')");
                    }

                    if (password is not null)
                    {
                        builder.Password = password;
                    }

                    if (dryRun)
                    {
                        Console.Out.WriteLine($"-- probe check --engine postgres dry run: would connect to {builder.Host} and send:");
                        foreach (var statement in ServerCheck.PostgresStatements)
                        {
                            Console.Out.WriteLine(statement);
                        }

                        return 0;
                    }

                    return await ServerCheck.PostgresAsync(builder.ConnectionString, Console.Out, token);
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
