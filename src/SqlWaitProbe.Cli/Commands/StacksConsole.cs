using Spectre.Console;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>A Spectre console on stdout for the stacks tables: plain text and a wide layout when output is redirected.</summary>
internal static class StacksConsole
{
    /// <summary>Creates the console for the current stdout.</summary>
    public static IAnsiConsole Create()
    {
        var redirected = Console.IsOutputRedirected;
        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Out = new AnsiConsoleOutput(Console.Out),
            Ansi = redirected ? AnsiSupport.No : AnsiSupport.Detect,
            ColorSystem = redirected ? ColorSystemSupport.NoColors : ColorSystemSupport.Detect,
        });
        if (redirected)
        {
            // Pipes and files have no width; keep module and symbol names on one line.
            console.Profile.Width = 200;
        }

        return console;
    }
}
