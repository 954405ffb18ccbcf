using Spectre.Console;
using SqlWaitProbe.Cli.Infrastructure;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>A Spectre console on stdout for the stacks tables: plain text and a wide layout when output is redirected.</summary>
internal static class StacksConsole
{
    /// <summary>Creates the Spectre console for <paramref name="console"/>'s stdout.</summary>
    public static IAnsiConsole Create(IProbeConsole console)
    {
        var redirected = console.IsOutputRedirected;
        var ansi = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Out = new AnsiConsoleOutput(console.Out),
            Ansi = redirected ? AnsiSupport.No : AnsiSupport.Detect,
            ColorSystem = redirected ? ColorSystemSupport.NoColors : ColorSystemSupport.Detect,
        });
        if (redirected)
        {
            // Pipes and files have no width; keep module and symbol names on one line.
            ansi.Profile.Width = 200;
        }

        return ansi;
    }
}
