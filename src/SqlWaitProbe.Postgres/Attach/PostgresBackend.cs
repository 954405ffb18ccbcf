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

    /// <summary>At most <paramref name="max"/> backends described, then how many more.</summary>
    public static string List(IReadOnlyList<PostgresBackend> backends, int max = 10) =>
        backends.Count == 0 ? "none"
        : string.Join(", ", backends.Take(max).Select(b => b.Describe())) + (backends.Count > max ? $" and {backends.Count - max} more" : "");
}
