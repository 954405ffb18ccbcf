namespace SqlWaitProbe.Core.Errors;

/// <summary>
/// Input the user gave is wrong (a file, a line in it, an option). Reported as one line with exit code 2.
/// </summary>
public sealed class BadInputException : Exception
{
    /// <summary>Creates the error; <paramref name="file"/> and <paramref name="line"/> locate it when known.</summary>
    public BadInputException(string message, string? file = null, long? line = null, Exception? inner = null)
        : base(message, inner)
    {
        File = file;
        Line = line;
    }

    /// <summary>The file the problem is in, if any.</summary>
    public string? File { get; }

    /// <summary>The 1-based line number, if known.</summary>
    public long? Line { get; }

    /// <summary>The one-line form shown to the user: <c>file:line: message</c>.</summary>
    public string OneLine => Flatten(File is null ? Message : Line is null ? $"{File}: {Message}" : $"{File}:{Line}: {Message}");

    /// <summary>
    /// The message as one safe line (<see cref="Text.TerminalText.Line"/>): line breaks become spaces and terminal
    /// escapes from the input it quotes become <c>?</c>.
    /// </summary>
    public static string Flatten(string text) => Text.TerminalText.Line(text).Trim();
}
