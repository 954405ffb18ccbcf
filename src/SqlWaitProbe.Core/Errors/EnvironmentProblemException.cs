namespace SqlWaitProbe.Core.Errors;

/// <summary>
/// Something outside the user's input failed or is missing (a server, a tool, a permission).
/// Reported as one line saying what to do, with exit code 1.
/// </summary>
public sealed class EnvironmentProblemException : Exception
{
    /// <summary>Creates the error; <paramref name="remedy"/> says what the user can do about it.</summary>
    public EnvironmentProblemException(string message, string? remedy = null, Exception? inner = null)
        : base(message, inner)
    {
        Remedy = remedy;
    }

    /// <summary>What to do about it, if known.</summary>
    public string? Remedy { get; }

    /// <summary>The one-line form shown to the user.</summary>
    public string OneLine => BadInputException.Flatten(Remedy is null ? Message : $"{Sentence(Message)} {Remedy}");

    // Driver messages quoted in the problem often end without a full stop; the remedy is a sentence of its own.
    private static string Sentence(string text)
    {
        var t = text.TrimEnd();
        return t.Length == 0 || t[^1] is '.' or '!' or '?' or ':' ? t : t + ".";
    }
}
