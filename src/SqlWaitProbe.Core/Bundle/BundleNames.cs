using System.Text.RegularExpressions;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Core.Bundle;

/// <summary>
/// The one place where a name read from a bundle (a phase name, a manifest file path, a stack-tag set name)
/// is checked before it becomes part of a path: a bundle travels through tickets, so its names are untrusted.
/// </summary>
public static partial class BundleNames
{
    /// <summary>Longest name of one path part.</summary>
    public const int MaxNameLength = 128;

    /// <summary>Most parts a bundle-relative path may have.</summary>
    public const int MaxDepth = 12;

    /// <summary>True for a single name: letters, digits, <c>_ . + -</c>, starting with a letter or digit (so never <c>.</c> or <c>..</c>), no separator.</summary>
    public static bool IsValidName(string? name) => name is { Length: > 0 and <= MaxNameLength } && NamePattern().IsMatch(name);

    /// <summary>True for a bundle-relative path: valid names joined by <c>/</c>.</summary>
    public static bool IsValidRelativePath(string? path)
    {
        if (string.IsNullOrEmpty(path))
        {
            return false;
        }

        var parts = path.Split('/');
        return parts.Length <= MaxDepth && parts.All(IsValidName);
    }

    /// <summary>Throws <see cref="BadInputException"/> naming <paramref name="what"/> unless <paramref name="name"/> is a valid name.</summary>
    public static string RequireName(string? name, string what, string? file = null) =>
        IsValidName(name)
            ? name!
            : throw new BadInputException($"{what} '{Shorten(name)}' is not a valid name (letters, digits, '_', '.', '+', '-'; no path separators); refusing to use it as a file name", file);

    /// <summary>Throws <see cref="BadInputException"/> unless <paramref name="path"/> is a valid bundle-relative path.</summary>
    public static string RequireRelativePath(string? path, string what, string? file = null) =>
        IsValidRelativePath(path)
            ? path!
            : throw new BadInputException($"{what} '{Shorten(path)}' is not a valid bundle path (names of letters, digits, '_', '.', '+', '-' joined by '/'); refusing it", file);

    /// <summary>
    /// Resolves a checked relative path under <paramref name="root"/> and checks that the result stays inside it.
    /// </summary>
    public static string Resolve(string root, string relative, string what)
    {
        RequireRelativePath(relative, what);
        var rootFull = Path.TrimEndingDirectorySeparator(Path.GetFullPath(root));
        var full = Path.GetFullPath(Path.Combine(rootFull, relative.Replace('/', Path.DirectorySeparatorChar)));
        if (!full.StartsWith(rootFull + Path.DirectorySeparatorChar, StringComparison.Ordinal))
        {
            throw new BadInputException($"{what} '{Shorten(relative)}' resolves outside '{rootFull}'; refusing it");
        }

        return full;
    }

    /// <summary>A name cut for an error line, control characters shown as '?'.</summary>
    public static string Shorten(string? s)
    {
        s ??= "";
        var flat = string.Concat(s.Select(c => char.IsControl(c) ? '?' : c));
        return flat.Length <= 60 ? flat : flat[..60] + "…";
    }

    [GeneratedRegex(@"^[A-Za-z0-9][A-Za-z0-9_.+\-]*$", RegexOptions.CultureInvariant)]
    private static partial Regex NamePattern();
}
