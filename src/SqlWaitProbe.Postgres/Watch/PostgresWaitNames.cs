namespace SqlWaitProbe.Postgres.Watch;

/// <summary>
/// PostgreSQL's wait classes (<c>wait_event_type</c>), for checking a watch trigger's wait name before anything starts:
/// a name with a class part must name one of them; a name without one must start one of them or be an event's prefix.
/// </summary>
public static class PostgresWaitNames
{
    /// <summary>Every <c>wait_event_type</c> of PostgreSQL 10 to 17.</summary>
    public static IReadOnlyList<string> Classes { get; } = ["Activity", "BufferPin", "Client", "Extension", "InjectionPoint", "IO", "IPC", "Lock", "LWLock", "Timeout"];

    /// <summary>Why <paramref name="name"/> cannot name a PostgreSQL wait, or null when it can.</summary>
    public static string? Check(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        var colon = name.IndexOf(':', StringComparison.Ordinal);
        if (colon < 0)
        {
            return null;
        }

        var type = name[..colon];
        return Classes.Any(c => string.Equals(c, type, StringComparison.OrdinalIgnoreCase))
            ? null
            : $"'{type}' is not a PostgreSQL wait class; the class before ':' is one of {string.Join(", ", Classes)} (e.g. wait:LWLock:BufferContent>20%)";
    }
}
