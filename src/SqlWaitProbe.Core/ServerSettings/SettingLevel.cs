namespace SqlWaitProbe.Core.ServerSettings;

/// <summary>Where and when a setting takes effect, which decides how an experiment applies and restores it.</summary>
public enum SettingLevel
{
    /// <summary>Per session (a PostgreSQL <c>SET</c>): run on every workload session, gone when the sessions close.</summary>
    Session,

    /// <summary>Server-wide at once (<c>ALTER SYSTEM</c> + reload, <c>sp_configure</c> + <c>RECONFIGURE</c>, a trace flag): restored after each variant.</summary>
    Server,

    /// <summary>Server-wide after a restart (PostgreSQL postmaster settings): only on the embedded server, which the experiment restarts.</summary>
    Restart,

    /// <summary>Fixed when the server started (trace flag 834, the memory model): never applied, accepted only when already in effect, always recorded.</summary>
    Startup,
}
