namespace SqlWaitProbe.Core.Check;

/// <summary><c>probe check</c> of one server by its engine: the plan (dry run), the text report, or the report for scripts.</summary>
public interface IServerCheck
{
    /// <summary>What the check would send, connecting to nothing.</summary>
    ServerCheckPlan Plan();

    /// <summary>Writes the dry run as text.</summary>
    void WriteDryRun(TextWriter output);

    /// <summary>Connects and reports as text; returns the exit code (0 ready, 1 not).</summary>
    Task<int> RunAsync(TextWriter output, CancellationToken cancellationToken);

    /// <summary>Connects and returns what it found.</summary>
    Task<ServerCheckReport> CheckAsync(CancellationToken cancellationToken);
}
