namespace SqlWaitProbe.SqlServer.Tests;

/// <summary>
/// A test that needs a real SQL Server: it runs when <c>SQLWAITPROBE_TEST_SQLSERVER</c> holds a SqlClient
/// connection string and is reported as skipped (not passed) otherwise.
/// </summary>
public sealed class SqlServerFactAttribute : FactAttribute
{
    /// <summary>The environment variable holding the connection string.</summary>
    public const string Variable = "SQLWAITPROBE_TEST_SQLSERVER";

    /// <summary>Marks the test skipped when no server is configured.</summary>
    public SqlServerFactAttribute()
    {
        if (string.IsNullOrWhiteSpace(ConnectionString))
        {
            Skip = $"no SQL Server: set {Variable} to a connection string to run this test";
        }
    }

    /// <summary>The configured connection string, or null.</summary>
    public static string? ConnectionString => Environment.GetEnvironmentVariable(Variable);
}
