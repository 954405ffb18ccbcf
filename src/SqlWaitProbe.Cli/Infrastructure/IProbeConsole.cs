namespace SqlWaitProbe.Cli.Infrastructure;

/// <summary>
/// The console a <c>probe</c> invocation talks to, passed to every command (as dotnet-trace passes its
/// <c>IConsole</c>): the real one in the tool, a captured one in tests, so in-process runs do not share the
/// process-wide <see cref="System.Console"/> and can run in parallel.
/// </summary>
public interface IProbeConsole
{
    /// <summary>Standard output: results.</summary>
    TextWriter Out { get; }

    /// <summary>Standard error: progress, log lines and the one-line errors.</summary>
    TextWriter Error { get; }

    /// <summary>True when stdin is not a terminal (no prompts possible).</summary>
    bool IsInputRedirected { get; }

    /// <summary>True when stdout is not a terminal (plain text, no colours).</summary>
    bool IsOutputRedirected { get; }

    /// <summary>True when stderr is not a terminal (plain progress lines instead of a live status).</summary>
    bool IsErrorRedirected { get; }

    /// <summary>Standard input as bytes, for stacks read from <c>-</c>.</summary>
    Stream OpenStandardInput();

    /// <summary>Standard output as bytes, for binary results written to <c>-</c>.</summary>
    Stream OpenStandardOutput();

    /// <summary>Reads a line typed on the terminal, or null at end of input.</summary>
    string? ReadLine();

    /// <summary>Reads one key from the terminal (for passwords, without echo when <paramref name="intercept"/>).</summary>
    ConsoleKeyInfo ReadKey(bool intercept);
}
