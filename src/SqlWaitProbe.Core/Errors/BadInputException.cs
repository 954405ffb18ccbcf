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

    /// <summary>Replaces line breaks and other control characters so the error stays on one line.</summary>
    public static string Flatten(string text) => string.Concat(text.Select(c => char.IsControl(c) ? ' ' : c)).Trim();
}
