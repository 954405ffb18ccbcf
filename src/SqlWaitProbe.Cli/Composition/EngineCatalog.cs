using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Postgres.Engine;
using SqlWaitProbe.SqlServer.Engine;

namespace SqlWaitProbe.Cli.Composition;

/// <summary>
/// The engines <c>probe capture --engine</c> knows. Each engine validates its own options and builds itself; a new
/// engine is a new project implementing <see cref="IEngine"/> plus one line here.
/// </summary>
public static class EngineCatalog
{
    /// <summary>The engine names, in help order.</summary>
    public static IReadOnlyList<string> Names { get; } = ["postgres", "sqlserver"];

    /// <summary>The engine <paramref name="arguments"/> ask for, validated (passwords asked on <paramref name="console"/>); throws <see cref="BadInputException"/>.</summary>
    public static IEngine Create(CaptureArguments arguments, IProbeConsole console) => arguments.Engine switch
    {
        "postgres" => PostgresEngine.Create(arguments),
        "sqlserver" => SqlServerEngine.Create(arguments, console.IsInputRedirected ? null : prompt => ConsolePrompt.ReadSecret(console, prompt)),
        _ => throw new BadInputException($"--engine '{arguments.Engine}' is not known; use {string.Join(" or ", Names)}"),
    };
}
