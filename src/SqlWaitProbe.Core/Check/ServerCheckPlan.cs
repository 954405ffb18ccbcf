namespace SqlWaitProbe.Core.Check;

/// <summary>What <c>probe check --dry-run</c> would send, connecting to nothing.</summary>
/// <param name="Engine"><c>postgres</c> or <c>sqlserver</c>.</param>
/// <param name="Server">The server it would connect to (host, or data source), never with a password.</param>
/// <param name="Statements">The statements, in the order they would be sent.</param>
/// <param name="Note">What the dry run assumes, when it assumes anything.</param>
public sealed record ServerCheckPlan(string Engine, string Server, IReadOnlyList<ServerCheckStatement> Statements, string? Note = null);
