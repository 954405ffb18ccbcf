namespace SqlWaitProbe.SqlServer.Xe;

/// <summary>The extended-event streams <c>--xe</c> can ask for.</summary>
public enum XeStream
{
    /// <summary><c>sqlos.page_allocated</c> and <c>sqlos.page_freed</c>, with a clerk histogram and an event file.</summary>
    Pages,

    /// <summary><c>sqlserver.latch_acquired</c> with a call-stack histogram.</summary>
    Latches,
}
