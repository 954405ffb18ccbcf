namespace SqlWaitProbe.Core.Check;

/// <summary>
/// What <c>probe check</c> found on a server, engine by engine the same shape so that scripts read one format: the
/// server, its version, who connected, and each thing a capture needs with whether it is there.
/// </summary>
/// <param name="Engine"><c>postgres</c> or <c>sqlserver</c>.</param>
/// <param name="Server">The server as the check names it (host, or data source), never with a password.</param>
/// <param name="Version">The short version, e.g. <c>16.0.4135.4</c> or <c>PostgreSQL 17.2</c>.</param>
/// <param name="VersionText">The server's full version string.</param>
/// <param name="Login">The login the check connected as, when the server says.</param>
/// <param name="Items">Each requirement or optional feature, in the order the text report lists them.</param>
public sealed record ServerCheckReport(string Engine, string Server, string Version, string VersionText, string? Login, IReadOnlyList<ServerCheckItem> Items)
{
    /// <summary>Every required item is there: a capture with every feature can run (exit code 0).</summary>
    public bool Ready => Items.All(i => i.Ok || !i.Required);

    /// <summary>Lines that belong to no item, e.g. how many server permissions the login holds.</summary>
    public IReadOnlyList<string> Notes { get; init; } = [];
}
