namespace SqlWaitProbe.Core.Check;

/// <summary>The server <c>probe check</c> looks at, as every engine reads it.</summary>
/// <param name="Server">A connection string or server name.</param>
/// <param name="Password">The password from <c>--password-env</c>, or null.</param>
/// <param name="DryRun">Print what would be sent; connect to nothing and ask for no password.</param>
public sealed record CheckTarget(string Server, string? Password, bool DryRun);
