namespace SqlWaitProbe.Core.Waits;

/// <summary>What a wait says about the server: a resource it lacked, or time that is not the server's problem.</summary>
public enum WaitClass
{
    /// <summary>The session waited for a resource of the server (a lock, a page, the log, a latch…): what findings are about.</summary>
    Resource,

    /// <summary>A task with nothing to do waiting for work (a background loop, a queue reader): never a problem.</summary>
    Idle,

    /// <summary>A wait the statement asked for (<c>pg_sleep</c>, <c>WAITFOR</c>) or the configuration set (vacuum cost delay).</summary>
    Intended,

    /// <summary>The server waited for the client: to send the next statement inside a transaction, or to read the results.</summary>
    Client,
}
