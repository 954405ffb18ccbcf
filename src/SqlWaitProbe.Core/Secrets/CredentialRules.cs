using System.Text.RegularExpressions;

namespace SqlWaitProbe.Core.Secrets;

/// <summary>
/// The one rule set that finds credentials and personal addresses in text, used wherever text leaves the process:
/// server settings recorded at capture, the internal-error log, what compare and analyze show of a bundle, and
/// <c>probe pack --redact</c>. Credentials (<see cref="Redact"/>) are always masked; addresses
/// (<see cref="RedactAddresses"/>) only when a pack is redacted, as they are facts of the capture until then.
/// </summary>
public static partial class CredentialRules
{
    /// <summary>What a masked credential reads as.</summary>
    public const string Mask = "***";

    /// <summary>Kind counted for a <c>password=…</c>-style pair (ADO.NET, libpq, environment-style names).</summary>
    public const string PasswordPair = "password or secret in a key=value pair";

    /// <summary>Kind counted for the password of a URI's <c>user:password@</c>.</summary>
    public const string UriPassword = "password in a URI (scheme://user:password@…)";

    /// <summary>Kind counted for an AWS access key id.</summary>
    public const string AwsKey = "AWS access key id";

    /// <summary>Kind counted for a known password (given to the probe, or spelt out elsewhere in the same text) where it stands alone.</summary>
    public const string KnownSecret = "known password standing alone";

    /// <summary>Kind counted for an e-mail address.</summary>
    public const string EmailAddress = "e-mail address";

    /// <summary>Kind counted for an IPv4 or IPv6 address.</summary>
    public const string IpAddress = "IP address";

    // Shorter known secrets are masked only where the structural rules find them: replacing "pw" everywhere
    // would rewrite unrelated text and tell a reader where it had been.
    private const int ShortestKnownSecret = 4;

    /// <summary>
    /// <paramref name="text"/> with every credential masked: the value of a <c>password=</c>, <c>pwd=</c>,
    /// <c>…password=</c> (<c>sslpassword</c>, <c>PGPASSWORD</c>), <c>access token=</c>, an Azure SAS address's <c>sig=</c> or AWS secret key pair (quoted or
    /// not; an unquoted value runs to <c>;</c>, the line end or the next <c>key=</c>), the password of a URI's
    /// <c>user:password@</c>, AWS access key ids, and each of <paramref name="knownSecrets"/> wherever it stands.
    /// Each replacement is counted by kind in <paramref name="counts"/>.
    /// </summary>
    public static string Redact(string text, IEnumerable<string>? knownSecrets = null, IDictionary<string, int>? counts = null)
    {
        ArgumentNullException.ThrowIfNull(text);
        text = SecretPair().Replace(text, m =>
        {
            if (m.Groups["value"].Value is Mask or "'***'" or "\"***\"" || m.Groups["value"].Length == 0)
            {
                return m.Value;
            }

            Count(counts, PasswordPair, 1);
            return m.Groups["key"].Value + Mask;
        });
        text = UriCredentials().Replace(text, m =>
        {
            if (m.Groups["password"].Value is Mask || m.Groups["password"].Length == 0)
            {
                return m.Value;
            }

            Count(counts, UriPassword, 1);
            return m.Groups["head"].Value + Mask + "@";
        });
        text = AwsAccessKey().Replace(text, _ =>
        {
            Count(counts, AwsKey, 1);
            return Mask;
        });

        // Last, so a pair or URI counts as what it is and only the value standing alone counts as a known secret.
        foreach (var secret in (knownSecrets ?? []).Where(s => s.Length >= ShortestKnownSecret && s != Mask).Distinct(StringComparer.Ordinal).OrderByDescending(s => s.Length))
        {
            var found = CountOf(text, secret);
            if (found > 0)
            {
                text = text.Replace(secret, Mask, StringComparison.Ordinal);
                Count(counts, KnownSecret, found);
            }
        }

        return text;
    }

    /// <summary>
    /// The value of server setting <paramref name="name"/> as it may be recorded: a command that unlocks a key
    /// (<c>ssl_passphrase_command</c>) masked whole, as it may spell out the passphrase; any other value through
    /// <see cref="Redact"/>, so a conninfo (<c>primary_conninfo</c>), a URI or a connection string keeps everything
    /// but its password.
    /// </summary>
    public static string RedactSetting(string name, string value)
    {
        ArgumentNullException.ThrowIfNull(name);
        ArgumentNullException.ThrowIfNull(value);
        if (name.Contains("passphrase_command", StringComparison.OrdinalIgnoreCase) && value.Length > 0)
        {
            return Mask;
        }

        return Redact(value);
    }

    /// <summary>Every setting of <paramref name="settings"/> through <see cref="RedactSetting"/>, names and order kept.</summary>
    public static Dictionary<string, string> RedactSettings(IReadOnlyDictionary<string, string> settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        var result = new Dictionary<string, string>(settings.Count, StringComparer.Ordinal);
        foreach (var (name, value) in settings)
        {
            result[name] = RedactSetting(name, value);
        }

        return result;
    }

    /// <summary>
    /// The secret values <paramref name="text"/> spells out (passwords of key=value pairs and URIs, unquoted), so they
    /// can be masked where they appear without their key: a log line, a CSV cell, a comment.
    /// </summary>
    public static IReadOnlyList<string> SecretsIn(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var found = new List<string>();
        foreach (Match m in SecretPair().Matches(text))
        {
            found.Add(Unquote(m.Groups["value"].Value.Trim()));
        }

        foreach (Match m in UriCredentials().Matches(text))
        {
            found.Add(m.Groups["password"].Value);
            found.Add(Uri.UnescapeDataString(m.Groups["password"].Value));
        }

        return found.Where(s => s.Length > 0 && s != Mask).Distinct(StringComparer.Ordinal).ToList();
    }

    /// <summary>
    /// A command line for a log: each argument through <see cref="Redact"/>, the secrets any argument spells out and
    /// the value of the variable <c>--password-env</c> names masked wherever they recur (that value is read only to be
    /// masked; the log names the variable, never its value).
    /// </summary>
    public static string RedactCommandLine(IReadOnlyList<string> args)
    {
        ArgumentNullException.ThrowIfNull(args);
        var secrets = SecretsOfCommandLine(args);
        return string.Join(' ', args.Select(a => Quote(Redact(a, secrets))));
    }

    /// <summary>The secrets of a command line (see <see cref="RedactCommandLine"/>), to mask them in other text too (an exception's message).</summary>
    public static IReadOnlyList<string> SecretsOfCommandLine(IReadOnlyList<string> args)
    {
        ArgumentNullException.ThrowIfNull(args);
        var secrets = new List<string>();
        for (var i = 0; i < args.Count; i++)
        {
            secrets.AddRange(SecretsIn(args[i]));
            var (name, value) = args[i].Split('=', 2) is [var n, var v] && n.StartsWith("--", StringComparison.Ordinal) ? (n, (string?)v) : (args[i], i + 1 < args.Count ? args[i + 1] : null);
            if (name == "--password-env" && value is { Length: > 0 } && Environment.GetEnvironmentVariable(value) is { Length: > 0 } password)
            {
                secrets.Add(password);
            }
        }

        // The variables the drivers read on their own hold passwords too.
        foreach (var variable in (ReadOnlySpan<string>)["PGPASSWORD", "SQLCMDPASSWORD"])
        {
            if (Environment.GetEnvironmentVariable(variable) is { Length: > 0 } value)
            {
                secrets.Add(value);
            }
        }

        return secrets.Distinct(StringComparer.Ordinal).ToList();
    }

    /// <summary>
    /// <paramref name="text"/> with e-mail addresses and IP addresses (v4 and v6 with a digit; loopback and unspecified ones kept)
    /// replaced by what <paramref name="placeholder"/> gives for the kind and the original, counted by kind.
    /// </summary>
    public static string RedactAddresses(string text, Func<string, string, string> placeholder, IDictionary<string, int>? counts = null)
    {
        ArgumentNullException.ThrowIfNull(text);
        ArgumentNullException.ThrowIfNull(placeholder);
        text = Email().Replace(text, m =>
        {
            Count(counts, EmailAddress, 1);
            return placeholder(EmailAddress, m.Value);
        });
        text = Ipv4().Replace(text, m =>
        {
            if (m.Value.StartsWith("127.", StringComparison.Ordinal) || m.Value == "0.0.0.0")
            {
                return m.Value;
            }

            Count(counts, IpAddress, 1);
            return placeholder(IpAddress, m.Value);
        });
        return Ipv6().Replace(text, m =>
        {
            // A run of hex letters around '::' without a digit is a C++ name (cc::Add), not an address.
            if (m.Value is "::1" || !m.Value.Any(char.IsAsciiDigit))
            {
                return m.Value;
            }

            Count(counts, IpAddress, 1);
            return placeholder(IpAddress, m.Value);
        });
    }

    private static string Unquote(string value) =>
        value.Length >= 2 && value[0] is '"' or '\'' && value[^1] == value[0]
            ? value[1..^1].Replace(new string(value[0], 2), value[0].ToString(), StringComparison.Ordinal).Replace("\\" + value[0], value[0].ToString(), StringComparison.Ordinal)
            : value;

    private static string Quote(string arg) =>
        arg.Length > 0 && !arg.Any(c => char.IsWhiteSpace(c) || c is '\'' or '"' or ';' or '&' or '|' or '$') ? arg : "'" + arg.Replace("'", "'\\''", StringComparison.Ordinal) + "'";

    private static int CountOf(string text, string value)
    {
        var n = 0;
        for (var at = text.IndexOf(value, StringComparison.Ordinal); at >= 0; at = text.IndexOf(value, at + value.Length, StringComparison.Ordinal))
        {
            n++;
        }

        return n;
    }

    private static void Count(IDictionary<string, int>? counts, string kind, int n)
    {
        if (counts is not null)
        {
            counts[kind] = counts.TryGetValue(kind, out var had) ? had + n : n;
        }
    }

    // key: a name ending in password or passwd (password, sslpassword, PGPASSWORD, db_password), pwd, access token,
    // sig (the signature of an Azure SAS address, as a symbol path may hold), an AWS secret key name. value: "…" or '…' (doubled quotes and backslash escapes inside), or unquoted up to ';',
    // the line end, whitespace before the next key= (libpq's conninfo separates pairs with spaces), or a quote that
    // closes the text around it ('…;Password=x' failed) — a quote inside a word (it's) stays part of the value.
    [GeneratedRegex("""(?<key>(?<!\w)(?:\w*pass(?:word|wd)|pwd|access[ _]?token|sig|aws_secret_access_key|secret_?access_?key)\s*=\s*)(?<value>"(?:[^"\\]|\\.|"")*"|'(?:[^'\\]|\\.|'')*'|(?:(?!\s+[A-Za-z_][\w.-]*\s*=)(?!['"](?:\s|$|[),]))[^;\r\n])*)""", RegexOptions.IgnoreCase | RegexOptions.CultureInvariant)]
    private static partial Regex SecretPair();

    // scheme://user:password@ — the user part has no ':', '/', '@' or space; the password runs to the last '@' before a space.
    [GeneratedRegex(@"(?<head>\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@?#]*:)(?<password>[^\s@]*)@", RegexOptions.CultureInvariant)]
    private static partial Regex UriCredentials();

    [GeneratedRegex(@"(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])", RegexOptions.CultureInvariant)]
    private static partial Regex AwsAccessKey();

    [GeneratedRegex(@"(?<![\w.%+-])[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}(?![\w-])", RegexOptions.CultureInvariant)]
    private static partial Regex Email();

    [GeneratedRegex(@"(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?![\w]|\.\d)", RegexOptions.CultureInvariant)]
    private static partial Regex Ipv4();

    // Full eight groups, or a compressed form with '::'; never inside a word or a longer run of colons (C++ names, times).
    [GeneratedRegex(@"(?<![\w:.])(?:(?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4}|(?:[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4}){0,6})?::(?:[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4}){0,6})?)(?![\w:])", RegexOptions.CultureInvariant)]
    private static partial Regex Ipv6();
}
