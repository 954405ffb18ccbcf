namespace SqlWaitProbe.Postgres.Attach;

/// <summary>One client backend as <c>pg_stat_activity</c> showed it when the attach window opened.</summary>
/// <param name="Pid">Backend process id.</param>
/// <param name="Database"><c>datname</c>.</param>
/// <param name="Role"><c>usename</c>.</param>
/// <param name="Application"><c>application_name</c>.</param>
public sealed record PostgresBackend(int Pid, string? Database, string? Role, string? Application);
