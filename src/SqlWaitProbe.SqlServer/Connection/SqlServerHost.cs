namespace SqlWaitProbe.SqlServer.Connection;

/// <summary>Where a SQL Server runs, as far as its name tells before connecting.</summary>
public static class SqlServerHost
{
    /// <summary>True when <paramref name="dataSource"/> names this machine (the server's process is visible here).</summary>
    public static bool IsLocal(string dataSource)
    {
        var host = dataSource.Split(',')[0].Split('\\')[0].Trim();
        if (host.StartsWith("tcp:", StringComparison.OrdinalIgnoreCase))
        {
            host = host[4..];
        }

        return host is "." or "(local)" or "localhost" or "127.0.0.1" or "::1" or "[::1]"
            || string.Equals(host, Environment.MachineName, StringComparison.OrdinalIgnoreCase);
    }
}
