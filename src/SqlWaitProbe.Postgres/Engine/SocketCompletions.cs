namespace SqlWaitProbe.Postgres.Engine;

/// <summary>
/// Runs socket completions inline on the runtime's event threads for the rest of the process (Linux and macOS;
/// Windows completes I/O through completion ports and ignores the setting).
/// </summary>
/// <remarks>
/// By default .NET hands every socket completion from its event thread to the thread pool: two thread wake-ups
/// per query. Inline, the event thread runs the continuation itself, so a handful of threads drive every
/// session, as pgbench's poll loop does; on a 2-CPU machine this nearly halves the client's CPU per query.
/// Only safe when no continuation blocks, which holds for the PostgreSQL capture path (Npgsql's asynchronous
/// I/O, the driver's lock-free recording); it is not used for SQL Server, whose client library is driven
/// synchronously. The runtime reads the setting when the first socket is created, so this must run before
/// any connection opens. A value the user has already set in the environment is kept.
/// </remarks>
internal static class SocketCompletions
{
    private const string Variable = "DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS";

    /// <summary>Turns inline completions on unless the environment already decides; returns the value in effect.</summary>
    public static string RunInline()
    {
        if (Environment.GetEnvironmentVariable(Variable) is { Length: > 0 } chosen)
        {
            return chosen;
        }

        Environment.SetEnvironmentVariable(Variable, "1");
        return "1";
    }
}
