using System.CommandLine;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>The SQL Server path of <c>probe capture</c> (placeholder until the SQL Server issue lands).</summary>
public static class CaptureSqlServer
{
    /// <summary>Runs a SQL Server capture (or its dry run) from the parsed capture options.</summary>
    public static Task<int> RunAsync(ParseResult parse, CancellationToken cancellationToken) =>
        throw new Core.Errors.BadInputException("the sqlserver engine is not built yet");
}
