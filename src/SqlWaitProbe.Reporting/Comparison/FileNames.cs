using System.Text;

namespace SqlWaitProbe.Reporting.Comparison;

/// <summary>File-name-safe forms of labels and phase names (they come from the user and from bundles).</summary>
internal static class FileNames
{
    /// <summary>Letters, digits, dot, dash and underscore kept; anything else becomes a dash; at most 40 characters.</summary>
    public static string Slug(string text)
    {
        var sb = new StringBuilder();
        foreach (var c in text)
        {
            sb.Append(char.IsAsciiLetterOrDigit(c) || c is '.' or '_' or '-' ? c : '-');
        }

        var slug = sb.ToString().Trim('-', '.');
        return slug.Length == 0 ? "x" : slug.Length > 40 ? slug[..40] : slug;
    }
}
