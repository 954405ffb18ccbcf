using System.Globalization;
using System.Security.Cryptography;
using System.Text;

namespace SqlWaitProbe.Core.Statements;

/// <summary>
/// The key that names one statement in every bundle file (<c>activity.csv</c>, <c>wait_samples.csv</c>,
/// <c>statements/*.csv</c>) so that samples, counters and plans meet: the engine's own statement id when the server
/// computes one (PostgreSQL's <c>queryid</c> in decimal, SQL Server's <c>query_hash</c> as <c>0x…</c>), else
/// <c>text:</c> and a hash of the text with its white space folded, for servers that compute none.
/// </summary>
public static class StatementKey
{
    /// <summary>Prefix of a key made from the text.</summary>
    public const string TextPrefix = "text:";

    /// <summary>The key of a PostgreSQL <c>queryid</c>; null for none (0 means the server did not compute it).</summary>
    public static string? FromQueryId(long? queryId) =>
        queryId is null or 0 ? null : queryId.Value.ToString(CultureInfo.InvariantCulture);

    /// <summary>
    /// The key of a SQL Server <c>query_hash</c> as the server converts it (<c>0x</c> and 16 hex digits); null for none,
    /// for the zero hash the server gives statements it does not hash, and for anything else.
    /// </summary>
    public static string? FromQueryHash(string? queryHash) =>
        queryHash is { Length: 18 } h && h.StartsWith("0x", StringComparison.Ordinal) && h.AsSpan(2).ContainsAnyExcept("0") && IsHex(h.AsSpan(2))
            ? "0x" + h[2..].ToUpperInvariant()
            : null;

    /// <summary>The key of a statement known only by its text; null for an empty text.</summary>
    public static string? FromText(string? text)
    {
        var folded = Fold(text);
        if (folded.Length == 0)
        {
            return null;
        }

        var hash = SHA256.HashData(Encoding.UTF8.GetBytes(folded));
        return TextPrefix + Convert.ToHexStringLower(hash.AsSpan(0, 8));
    }

    /// <summary>True when <paramref name="key"/> was made from a text, not from an id the server computed.</summary>
    public static bool IsTextKey(string key) => key.StartsWith(TextPrefix, StringComparison.Ordinal);

    private static bool IsHex(ReadOnlySpan<char> digits)
    {
        foreach (var c in digits)
        {
            if (!char.IsAsciiHexDigit(c))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>The text with runs of white space made one space and the ends trimmed, as keys and matching see it.</summary>
    public static string Fold(string? text)
    {
        if (string.IsNullOrWhiteSpace(text))
        {
            return "";
        }

        var builder = new StringBuilder(text.Length);
        var space = false;
        foreach (var c in text.Trim())
        {
            if (char.IsWhiteSpace(c))
            {
                space = true;
                continue;
            }

            if (space)
            {
                builder.Append(' ');
                space = false;
            }

            builder.Append(c);
        }

        return builder.ToString();
    }
}
