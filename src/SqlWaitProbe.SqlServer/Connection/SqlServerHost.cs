using System.Diagnostics;

namespace SqlWaitProbe.SqlServer.Connection;

/// <summary>Where a SQL Server runs: guessed from its name before connecting, decided by what it says after.</summary>
public static class SqlServerHost
{
    /// <summary>True when <paramref name="dataSource"/> names this machine (the server's process is visible here).</summary>
    public static bool IsLocal(string dataSource)
    {
        var host = dataSource.Split(',')[0].Split('\\')[0].Trim();
        foreach (var prefix in new[] { "tcp:", "np:", "lpc:", "admin:" })
        {
            if (host.StartsWith(prefix, StringComparison.OrdinalIgnoreCase))
            {
                host = host[prefix.Length..];
                break;
            }
        }

        return host is "." or "(local)" or "localhost" or "127.0.0.1" or "::1" or "[::1]"
            || string.Equals(host, Environment.MachineName, StringComparison.OrdinalIgnoreCase);
    }

    /// <summary>
    /// Whether the connected server runs on this machine, and its process here. A full domain name, an IP address, an
    /// alias or a named pipe does not show it in the name; the server's own machine name
    /// (<paramref name="physicalMachine"/>) does, and its process id names a local <c>sqlservr</c> only when the
    /// process of that id here is one (<paramref name="processName"/>: the name of the local process of an id, or null).
    /// The name typed still counts when the server does not say its machine (a container, whose name and process ids
    /// are its own, answers with those: local by name, but with no process here).
    /// </summary>
    public static SqlServerLocation Locate(string dataSource, string? physicalMachine, int? processId, string machineName, Func<int, string?> processName)
    {
        var serverProcess = processId is { } pid && string.Equals(processName(pid), "sqlservr", StringComparison.OrdinalIgnoreCase) ? pid : (int?)null;
        if (physicalMachine is not null && string.Equals(physicalMachine.Trim(), machineName, StringComparison.OrdinalIgnoreCase))
        {
            return new SqlServerLocation(true, serverProcess, serverProcess is null
                ? $"the server runs on this machine ({physicalMachine}), but process {processId?.ToString(System.Globalization.CultureInfo.InvariantCulture) ?? "(unknown)"} here is not sqlservr"
                : $"the server runs on this machine ({physicalMachine}) as sqlservr process {serverProcess.Value.ToString(System.Globalization.CultureInfo.InvariantCulture)}");
        }

        if (IsLocal(dataSource))
        {
            return new SqlServerLocation(true, serverProcess, physicalMachine is null
                ? "the server name names this machine"
                : $"the server name names this machine, though the server says it runs on {physicalMachine} (a container?)");
        }

        return new SqlServerLocation(false, null, physicalMachine is null ? "the server name names another machine" : $"the server runs on {physicalMachine}, not on {machineName}");
    }

    /// <summary>The name of this machine's process <paramref name="pid"/>, or null when there is none or it cannot be read.</summary>
    public static string? LocalProcessName(int pid)
    {
        try
        {
            using var process = Process.GetProcessById(pid);
            return process.ProcessName;
        }
        catch (Exception e) when (e is ArgumentException or InvalidOperationException or System.ComponentModel.Win32Exception or NotSupportedException)
        {
            return null;
        }
    }
}
