using System.CommandLine;
using System.Text.Json;
using SqlWaitProbe.Cli.Composition;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Check;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.Modules;

namespace SqlWaitProbe.Cli.Commands;

/// <summary><c>probe check</c>: connects and reports the server version and the permissions a capture needs.</summary>
public static class CheckCommand
{
    // The options every engine's check reads, described for what check does with them; each engine adds its own.
    private static readonly OptionSpec<string> Engine = new("--engine", "-e")
    {
        Help = $"Engine of the server to check: {EngineCatalog.Listed}.",
        HelpOrder = 10,
        Default = () => EngineCatalog.Names[0],
    };

    private static readonly OptionSpec<string?> Server = new("--server", "-S")
    {
        Help = "The server to check (required): a connection string, or (sqlserver) a server name. check connects only to a running server.",
        HelpOrder = 20,
    };

    private static readonly OptionSpec<string?> PasswordEnv = new("--password-env")
    {
        Help = "Name of the environment variable that holds that login's password (never pass a password on the command line).",
        HelpOrder = 40,
    };

    private static readonly OptionSpec<bool> DryRun = new("--dry-run")
    {
        Help = "Print the queries check would send (version, permissions, extensions) without connecting.",
        HelpOrder = 70,
    };

    private static readonly Option<string> Format = JsonFormatOption.Create(
        "text, or json for scripts: the server, version, login, ready (true when every required item is there; the exit code says the same) and each item with ok, required, status and fix; with --dry-run, the statements.");

    public static Command Create(IProbeConsole console)
    {
        var command = new Command("check", "Connect to a server and report its version and whether the probe's permissions (VIEW SERVER STATE, ALTER ANY EVENT SESSION, …) or extensions are there.");
        var binder = new OptionBinder([Engine, Server, PasswordEnv, DryRun, .. Registered.Engines.SelectMany(e => e.CheckOptions)]);
        foreach (var option in binder.Options)
        {
            command.Options.Add(option);
        }

        command.Options.Add(Format);
        command.SetAction((parse, ct) => CommandRunner.RunAsync(console, parse, ct, async token =>
        {
            var options = binder.Read(parse);
            var server = options.Get(Server) ?? throw new BadInputException("probe check needs --server");
            var dryRun = options.Get(DryRun);
            var json = parse.GetValue(Format) == "json";
            var passwordEnv = options.Get(PasswordEnv);
            var password = passwordEnv is null ? null : Environment.GetEnvironmentVariable(passwordEnv)
                ?? throw new BadInputException($"--password-env: the environment variable {passwordEnv} is not set");
            var engine = EngineCatalog.Find(options.Get(Engine));
            var check = engine.CreateCheck(new CheckTarget(server, password, dryRun), options, EngineCatalog.Context(console, RunScope.NewCapture()));
            if (dryRun)
            {
                if (json)
                {
                    return WriteJson(console, check.Plan());
                }

                check.WriteDryRun(console.Out);
                return 0;
            }

            return json ? WriteJson(console, await check.CheckAsync(token)) : await check.RunAsync(console.Out, token);
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
}
