namespace SqlWaitProbe.Core.ServerSettings;

/// <summary>Competing sessions an experiment runs beside the measured work; disposing stops them.</summary>
public interface IBackgroundLoad : IAsyncDisposable
{
    /// <summary>How the server knows each session: PostgreSQL backend pids, SQL Server session ids.</summary>
    IReadOnlyList<int> SessionIds { get; }

    /// <summary>Whether <see cref="SessionIds"/> are OS process ids (PostgreSQL backends), which CPU samples can name.</summary>
    bool AreProcesses { get; }

    /// <summary>Executions completed so far, all sessions together.</summary>
    long Executions { get; }

    /// <summary>The first error a session met, or null.</summary>
    string? FirstError { get; }
}
