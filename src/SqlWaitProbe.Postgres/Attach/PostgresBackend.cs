namespace SqlWaitProbe.Postgres.Attach;

/// <summary>One client backend as <c>pg_stat_activity</c> showed it.</summary>
/// <param name="Pid">Backend process id.</param>
/// <param name="Database"><c>datname</c>.</param>
/// <param name="Role"><c>usename</c>.</param>
/// <param name="Application"><c>application_name</c>.</param>
public sealed record PostgresBackend(int Pid, string? Database, string? Role, string? Application)
{
    /// <summary>The backend for a message, e.g. <c>pid 123 (role app, database shop, application pgbench)</c>.</summary>
    public string Describe()
    {
        var parts = new List<string>();
        if (Role is { Length: > 0 }) parts.Add("role " + Role);
        if (Database is { Length: > 0 }) parts.Add("database " + Database);
        if (Application is { Length: > 0 }) parts.Add("application " + Application);
        return parts.Count == 0 ? $"pid {Pid}" : $"pid {Pid} ({string.Join(", ", parts)})";
    }

    /// <summary>
    /// The roles, databases and applications of <paramref name="backends"/> as manifest options
    /// (<see cref="Core.Engines.AttachWindow.RolesOption"/> …): every name a message about them may quote, for
    /// <c>pack --redact</c>.
    /// </summary>
    public static Dictionary<string, string> NameOptions(IEnumerable<PostgresBackend> backends)
    {
        var all = backends.ToArray();
        var options = new Dictionary<string, string>(StringComparer.Ordinal);
        void Put(string key, IEnumerable<string?> names)
        {
            var distinct = names.Where(n => !string.IsNullOrWhiteSpace(n)).Select(n => n!).Distinct(StringComparer.Ordinal).OrderBy(n => n, StringComparer.Ordinal).ToArray();
            if (distinct.Length > 0)
            {
                options[key] = string.Join('\n', distinct);
            }
        }

        Put(Core.Engines.AttachWindow.RolesOption, all.Select(b => b.Role));
        Put(Core.Engines.AttachWindow.DatabasesOption, all.Select(b => b.Database));
        Put(Core.Engines.AttachWindow.ApplicationsOption, all.Select(b => b.Application));
        return options;
    }

    /// <summary>At most <paramref name="max"/> backends described, then how many more.</summary>
    public static string List(IReadOnlyList<PostgresBackend> backends, int max = 10) =>
        backends.Count == 0 ? "none"
        : string.Join(", ", backends.Take(max).Select(b => b.Describe())) + (backends.Count > max ? $" and {backends.Count - max} more" : "");
}
