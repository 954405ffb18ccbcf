using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Capture;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Postgres.Capture;
using SqlWaitProbe.SqlServer.Capture;

namespace SqlWaitProbe.Cli.Capture;

/// <summary>
/// The engines <c>probe capture --engine</c> knows. Each engine validates its own options and builds itself; a new
/// engine is a new project implementing <see cref="ICaptureEngine"/> plus one line here.
/// </summary>
public static class CaptureEngines
{
    /// <summary>The engine names, in help order.</summary>
    public static IReadOnlyList<string> Names { get; } = ["postgres", "sqlserver"];

    /// <summary>The engine <paramref name="arguments"/> ask for, validated (passwords asked on <paramref name="console"/>); throws <see cref="BadInputException"/>.</summary>
    public static ICaptureEngine Create(CaptureArguments arguments, IProbeConsole console) => arguments.Engine switch
    {
        "postgres" => PostgresCaptureEngine.Create(arguments),
        "sqlserver" => SqlServerCaptureEngine.Create(arguments, console.IsInputRedirected ? null : prompt => ConsolePrompt.ReadSecret(console, prompt)),
        _ => throw new BadInputException($"--engine '{arguments.Engine}' is not known; use {string.Join(" or ", Names)}"),
    };
}
