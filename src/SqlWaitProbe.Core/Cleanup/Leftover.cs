namespace SqlWaitProbe.Core.Cleanup;

/// <summary>Something a killed capture left behind (a server, a folder, a child process, a trace session).</summary>
/// <param name="Kind">What it is, e.g. <c>embedded-postgres</c>, <c>perf</c>, <c>xe-session</c>.</param>
/// <param name="Id">What identifies it for removal: a folder, a pid, a session name.</param>
/// <param name="Description">One line for the user.</param>
public sealed record Leftover(string Kind, string Id, string Description)
{
    /// <summary>Every process and file removing it would touch, one line each, for the dry run.</summary>
    public IReadOnlyList<string> Actions { get; init; } = [];
}
