using System.Globalization;
using System.Text;
using Npgsql;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Postgres.Engine;

/// <summary>
/// The two connection-string forms of libpq (psql, pg_dump and most PostgreSQL tools take them) mapped onto Npgsql's
/// builder: keyword/value strings (<c>host=db1 port=5432 user=me password=… dbname=app</c>, values quoted with
/// <c>'…'</c> and <c>\</c> escapes) and URIs (<c>postgresql://me:…@db1:5432/app?sslmode=require</c>, parts
/// percent-encoded, several <c>host:port</c> separated by commas). A keyword Npgsql has no equivalent for is refused
/// by name. No message ever repeats a value: the text may hold a password.
/// </summary>
public static class LibpqConnectionString
{
    private const string Forms = "give --server as 'host=… port=… user=… dbname=…', as 'postgresql://user@host:port/db', or as an Npgsql string 'Host=…;Username=…;Database=…'";

    // libpq keyword → how it is set on the builder.
    private static readonly Dictionary<string, Action<NpgsqlConnectionStringBuilder, string, string>> Keywords = new(StringComparer.Ordinal)
    {
        ["host"] = (b, _, v) => b.Host = v,
        ["hostaddr"] = (b, _, v) => b.Host = v,
        ["port"] = (b, k, v) => b.Port = Number(k, v),
        ["dbname"] = (b, _, v) => b.Database = v,
        ["user"] = (b, _, v) => b.Username = v,
        ["password"] = (b, _, v) => b.Password = v,
        ["passfile"] = (b, _, v) => b.Passfile = v,
        ["connect_timeout"] = (b, k, v) => b.Timeout = Math.Max(2, Number(k, v)),
        ["application_name"] = (b, _, v) => b.ApplicationName = v,
        ["fallback_application_name"] = (b, _, v) => b.ApplicationName ??= v,
        ["client_encoding"] = (b, _, v) => b.ClientEncoding = v,
        ["options"] = (b, _, v) => b.Options = v,
        ["sslmode"] = (b, k, v) => b.SslMode = Choice(k, v, new Dictionary<string, SslMode>
        {
            ["disable"] = SslMode.Disable, ["allow"] = SslMode.Allow, ["prefer"] = SslMode.Prefer,
            ["require"] = SslMode.Require, ["verify-ca"] = SslMode.VerifyCA, ["verify-full"] = SslMode.VerifyFull,
        }),
        ["requiressl"] = (b, k, v) => b.SslMode = Number(k, v) == 1 ? SslMode.Require : SslMode.Prefer,
        ["sslrootcert"] = (b, _, v) => b.RootCertificate = v,
        ["sslcert"] = (b, _, v) => b.SslCertificate = v,
        ["sslkey"] = (b, _, v) => b.SslKey = v,
        ["sslpassword"] = (b, _, v) => b.SslPassword = v,
        ["sslnegotiation"] = (b, k, v) => b.SslNegotiation = Choice(k, v, new Dictionary<string, SslNegotiation> { ["postgres"] = SslNegotiation.Postgres, ["direct"] = SslNegotiation.Direct }),
        ["channel_binding"] = (b, k, v) => b.ChannelBinding = Choice(k, v, new Dictionary<string, ChannelBinding> { ["disable"] = ChannelBinding.Disable, ["prefer"] = ChannelBinding.Prefer, ["require"] = ChannelBinding.Require }),
        ["gssencmode"] = (b, k, v) => b.GssEncryptionMode = Choice(k, v, new Dictionary<string, GssEncryptionMode> { ["disable"] = GssEncryptionMode.Disable, ["prefer"] = GssEncryptionMode.Prefer, ["require"] = GssEncryptionMode.Require }),
        ["krbsrvname"] = (b, _, v) => b.KerberosServiceName = v,
        ["require_auth"] = (b, _, v) => b.RequireAuth = v,
        ["target_session_attrs"] = (b, _, v) => b.TargetSessionAttributes = v,
        ["load_balance_hosts"] = (b, k, v) => b.LoadBalanceHosts = Choice(k, v, new Dictionary<string, bool> { ["disable"] = false, ["random"] = true }),
        ["keepalives"] = (b, k, v) => b.TcpKeepAlive = Number(k, v) != 0,
        ["keepalives_idle"] = (b, k, v) => b.TcpKeepAliveTime = Number(k, v),
        ["keepalives_interval"] = (b, k, v) => b.TcpKeepAliveInterval = Number(k, v),
    };

    // libpq keywords a DBA may well write that Npgsql cannot honour: named in the refusal rather than "unknown".
    private static readonly HashSet<string> Unsupported = new(StringComparer.Ordinal)
    {
        "service", "sslcrl", "sslcrldir", "sslsni", "sslcompression", "requirepeer", "ssl_min_protocol_version", "ssl_max_protocol_version",
        "gsslib", "replication", "tcp_user_timeout", "keepalives_count", "gssdelegation",
    };

    /// <summary>True when <paramref name="text"/> is a libpq URI (<c>postgresql://</c> or <c>postgres://</c>).</summary>
    public static bool IsUri(string text) =>
        text.TrimStart().StartsWith("postgresql://", StringComparison.OrdinalIgnoreCase) || text.TrimStart().StartsWith("postgres://", StringComparison.OrdinalIgnoreCase);

    /// <summary>
    /// True when <paramref name="text"/> reads as libpq keyword/value pairs and as nothing else: no <c>;</c> (Npgsql's
    /// separator) outside a quoted value, and either several space-separated pairs or one pair whose keyword is
    /// libpq's (they are lowercase: <c>host=db1</c>); also a string that begins as libpq but breaks its grammar, so
    /// the refusal says what to fix.
    /// </summary>
    public static bool IsKeywordValue(string text)
    {
        if (SemicolonOutsideQuotes(text))
        {
            return false;
        }

        if (!TryPairs(text, out var pairs))
        {
            var eq = text.IndexOf('=', StringComparison.Ordinal);
            return eq > 0 && IsLibpqKeyword(text[..eq].Trim());
        }

        return pairs.Count > 1 || (pairs.Count == 1 && IsLibpqKeyword(pairs[0].Key));
    }

    /// <summary>
    /// True when <paramref name="text"/>, which has a <c>;</c> outside quotes, still reads as several libpq pairs with
    /// libpq keywords only (<c>password=a;b</c> is a libpq value): the caller tries Npgsql's form first.
    /// </summary>
    public static bool MayBeKeywordValue(string text) =>
        TryPairs(text, out var pairs) && pairs.Count > 1 && pairs.All(p => IsLibpqKeyword(p.Key));

    /// <summary>The builder for a libpq keyword/value string; throws <see cref="BadInputException"/> naming the keyword at fault.</summary>
    public static NpgsqlConnectionStringBuilder FromKeywordValue(string text)
    {
        if (!TryPairs(text, out var pairs))
        {
            throw new BadInputException($"--server looks like libpq 'keyword=value' pairs but one is not (a value with spaces needs single quotes, a quote inside one a backslash); {Forms}");
        }

        var builder = new NpgsqlConnectionStringBuilder();
        var keys = pairs.Select(p => p.Key).ToHashSet(StringComparer.Ordinal);
        if (keys.Contains("host") && keys.Contains("hostaddr"))
        {
            throw new BadInputException("--server gives both host and hostaddr, which Npgsql cannot tell apart: keep one");
        }

        foreach (var (key, value) in pairs)
        {
            Apply(builder, key, value);
        }

        return Ordered(builder);
    }

    /// <summary>The builder for a <c>postgresql://</c> URI; throws <see cref="BadInputException"/> naming the part at fault.</summary>
    public static NpgsqlConnectionStringBuilder FromUri(string text)
    {
        var rest = text.Trim();
        rest = rest[(rest.IndexOf("://", StringComparison.Ordinal) + 3)..];
        var builder = new NpgsqlConnectionStringBuilder();
        string? query = null;
        var q = rest.IndexOf('?', StringComparison.Ordinal);
        if (q >= 0)
        {
            query = rest[(q + 1)..];
            rest = rest[..q];
        }

        string? path = null;
        var slash = rest.IndexOf('/', StringComparison.Ordinal);
        if (slash >= 0)
        {
            path = rest[(slash + 1)..];
            rest = rest[..slash];
        }

        var at = rest.LastIndexOf('@');
        if (at >= 0)
        {
            var user = rest[..at];
            rest = rest[(at + 1)..];
            var colon = user.IndexOf(':', StringComparison.Ordinal);
            if (colon >= 0)
            {
                builder.Password = Decode(user[(colon + 1)..], "password");
                user = user[..colon];
            }

            if (user.Length > 0)
            {
                builder.Username = Decode(user, "user name");
            }
        }

        if (rest.Length > 0)
        {
            builder.Host = Hosts(rest, builder);
        }

        if (!string.IsNullOrEmpty(path))
        {
            builder.Database = Decode(path, "database name");
        }

        foreach (var parameter in (query ?? "").Split('&', StringSplitOptions.RemoveEmptyEntries))
        {
            var eq = parameter.IndexOf('=', StringComparison.Ordinal);
            if (eq <= 0)
            {
                throw new BadInputException($"--server: a parameter after '?' in the postgresql:// URI is not keyword=value; {Forms}");
            }

            Apply(builder, Decode(parameter[..eq], "parameter name"), Decode(parameter[(eq + 1)..], "parameter value"));
        }

        return Ordered(builder);
    }

    private static bool IsLibpqKeyword(string key) => Keywords.ContainsKey(key) || Unsupported.Contains(key);

    private static void Apply(NpgsqlConnectionStringBuilder builder, string key, string value)
    {
        if (Keywords.TryGetValue(key, out var set))
        {
            set(builder, key, value);
            return;
        }

        if (Unsupported.Contains(key))
        {
            throw new BadInputException($"--server: the libpq keyword '{key}' has no Npgsql equivalent, so the probe cannot honour it: leave it out, or {Forms}");
        }

        throw new BadInputException($"--server: '{Printable(key)}' is not a libpq keyword (they are lowercase: host, port, dbname, user, password, sslmode, …); {Forms}");
    }

    // host[:port] or [v6][:port], several separated by commas: one host sets Host and Port; several become Npgsql's
    // "h1:p1,h2:p2" (an IPv6 one in brackets).
    private static string Hosts(string list, NpgsqlConnectionStringBuilder builder)
    {
        var hosts = new List<(string Host, int? Port)>();
        foreach (var part in list.Split(',', StringSplitOptions.RemoveEmptyEntries))
        {
            string host;
            string? port = null;
            if (part.StartsWith('['))
            {
                var close = part.IndexOf(']', StringComparison.Ordinal);
                if (close < 0 || (part.Length > close + 1 && part[close + 1] != ':'))
                {
                    throw new BadInputException($"--server: an IPv6 host in the postgresql:// URI must read [ADDRESS] or [ADDRESS]:PORT; {Forms}");
                }

                host = part[1..close];
                port = part.Length > close + 2 ? part[(close + 2)..] : null;
            }
            else
            {
                var colon = part.LastIndexOf(':');
                host = Decode(colon >= 0 ? part[..colon] : part, "host");
                port = colon >= 0 ? part[(colon + 1)..] : null;
            }

            hosts.Add((host, port is { Length: > 0 } ? Number("port", port) : null));
        }

        if (hosts.Count == 1)
        {
            if (hosts[0].Port is { } single)
            {
                builder.Port = single;
            }

            return hosts[0].Host;
        }

        return string.Join(',', hosts.Select(h =>
            (h.Host.Contains(':', StringComparison.Ordinal) ? "[" + h.Host + "]" : h.Host) + (h.Port is { } p ? ":" + p.ToString(CultureInfo.InvariantCulture) : "")));
    }

    // libpq refuses a '%' not followed by two hex digits; so does the probe, rather than guess what was meant.
    private static string Decode(string text, string part)
    {
        for (var i = text.IndexOf('%', StringComparison.Ordinal); i >= 0; i = text.IndexOf('%', i + 1))
        {
            if (i + 2 >= text.Length || !char.IsAsciiHexDigit(text[i + 1]) || !char.IsAsciiHexDigit(text[i + 2]))
            {
                throw new BadInputException($"--server: the {part} in the postgresql:// URI is not valid percent-encoding (a '%' must be followed by two hex digits: '%25' for '%' itself); {Forms}");
            }
        }

        return Uri.UnescapeDataString(text);
    }

    // The builder in the order a reader expects (Host, Port, Username, Database first), whatever order the text had.
    private static NpgsqlConnectionStringBuilder Ordered(NpgsqlConnectionStringBuilder built)
    {
        var ordered = new NpgsqlConnectionStringBuilder();
        string[] first = ["Host", "Port", "Username", "Password", "Database"];
        foreach (var key in first.Concat(built.Keys.Cast<string>().Except(first, StringComparer.OrdinalIgnoreCase)))
        {
            if (built.TryGetValue(key, out var value))
            {
                ordered[key] = value;
            }
        }

        return ordered;
    }

    private static int Number(string key, string value) =>
        int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var n)
            ? n
            : throw new BadInputException($"--server: {key} must be a whole number; {Forms}");

    private static T Choice<T>(string key, string value, Dictionary<string, T> choices) =>
        choices.TryGetValue(value, out var choice)
            ? choice
            : throw new BadInputException($"--server: {key} must be one of {string.Join(", ", choices.Keys)}");

    // A keyword is no secret, but a mangled string may put one where a keyword goes: only short plain names are shown.
    private static string Printable(string key) => key.Length <= 40 && key.All(c => char.IsAsciiLetterOrDigit(c) || c is '_' or '-' or ' ') ? key : "(a keyword)";

    // Npgsql separates pairs with ';'; in libpq it can only stand inside a value, quoted or escaped.
    private static bool SemicolonOutsideQuotes(string text)
    {
        var quoted = false;
        for (var i = 0; i < text.Length; i++)
        {
            switch (text[i])
            {
                case '\\':
                    i++;
                    break;
                case '\'':
                    quoted = !quoted;
                    break;
                case ';' when !quoted:
                    return true;
            }
        }

        return false;
    }

    // libpq's grammar: keyword, optional spaces, '=', optional spaces, then a value: '…' with \' and \\ escapes, or a run
    // of non-space characters where '\' escapes the next one.
    private static bool TryPairs(string text, out List<(string Key, string Value)> pairs)
    {
        pairs = [];
        var i = 0;
        while (true)
        {
            while (i < text.Length && char.IsWhiteSpace(text[i]))
            {
                i++;
            }

            if (i == text.Length)
            {
                return true;
            }

            var start = i;
            while (i < text.Length && !char.IsWhiteSpace(text[i]) && text[i] != '=')
            {
                i++;
            }

            var key = text[start..i];
            while (i < text.Length && char.IsWhiteSpace(text[i]))
            {
                i++;
            }

            if (key.Length == 0 || i == text.Length || text[i] != '=')
            {
                return false;
            }

            i++;
            while (i < text.Length && char.IsWhiteSpace(text[i]))
            {
                i++;
            }

            var value = new StringBuilder();
            if (i < text.Length && text[i] == '\'')
            {
                i++;
                var closed = false;
                while (i < text.Length)
                {
                    if (text[i] == '\\' && i + 1 < text.Length)
                    {
                        value.Append(text[i + 1]);
                        i += 2;
                    }
                    else if (text[i] == '\'')
                    {
                        i++;
                        closed = true;
                        break;
                    }
                    else
                    {
                        value.Append(text[i++]);
                    }
                }

                if (!closed)
                {
                    return false;
                }
            }
            else
            {
                while (i < text.Length && !char.IsWhiteSpace(text[i]))
                {
                    if (text[i] == '\\' && i + 1 < text.Length)
                    {
                        i++;
                    }

                    value.Append(text[i++]);
                }
            }

            pairs.Add((key, value.ToString()));
        }
    }
}
