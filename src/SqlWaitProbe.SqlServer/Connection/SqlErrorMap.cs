using System.ComponentModel;
using System.Net.Sockets;
using Microsoft.Data.SqlClient;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.SqlServer.Connection;

/// <summary>
/// Maps SQL Server error numbers to one line that names the problem and the remedy. Only numbers are
/// matched, never message text (messages are localised and change between versions).
/// </summary>
public static class SqlErrorMap
{
    /// <summary>Login failed for user.</summary>
    public const int LoginFailed = 18456;
    /// <summary>Cannot open the database requested by the login.</summary>
    public const int CannotOpenDatabase = 4060;
    /// <summary>Permission errors: 297 (no permission to perform the action), 300 (VIEW SERVER STATE denied), 262, 229, 25602 (XE permission).</summary>
    public static readonly IReadOnlySet<int> PermissionDenied = new HashSet<int> { 297, 300, 262, 229, 15247, 25602 };
    /// <summary>Network-level failures: timeouts (-2, 258), server not found or refused (53, 2, 40, 26, 10060, 10061, 11001).</summary>
    public static readonly IReadOnlySet<int> Network = new HashSet<int> { -2, 2, 26, 40, 53, 258, 10054, 10060, 10061, 11001, 35 };

    /// <summary>The server's TLS certificate is not trusted by this machine (SEC_E_UNTRUSTED_ROOT, as SqlClient reports it).</summary>
    public const int UntrustedCertificate = -2146893019;

    /// <summary>The error for a failed connection or statement.</summary>
    public static EnvironmentProblemException ToEnvironmentProblem(SqlException e, string server, string? login)
    {
        if (e.Number == UntrustedCertificate || e.InnerException is System.Security.Authentication.AuthenticationException)
        {
            return ToEnvironmentProblem(UntrustedCertificate, server, login, e);
        }

        // The managed network layer (Linux, macOS) reports unreachable servers as number 0 with class 20.
        return ToEnvironmentProblem(e.Number, server, login, e, e.InnerException is SocketException or Win32Exception || e.Number == 0 && e.Class >= 20);
    }

    /// <summary>The error for SQL Server error <paramref name="number"/> (testable without a server).</summary>
    public static EnvironmentProblemException ToEnvironmentProblem(int number, string server, string? login, Exception? inner = null, bool socketFailure = false)
    {
        var who = string.IsNullOrEmpty(login) ? "the Windows/Kerberos identity" : $"login '{login}'";
        if (number == LoginFailed)
        {
            return new EnvironmentProblemException($"SQL Server '{server}' rejected {who} (error 18456).",
                "Check --user and the password variable named by --password-env, or use integrated authentication.", inner);
        }

        if (number == UntrustedCertificate)
        {
            return new EnvironmentProblemException($"SQL Server '{server}' encrypts the connection with a certificate this machine does not trust.",
                "Install a certificate on the server that this machine trusts, or add --trust-server-certificate to accept it unverified.", inner);
        }

        if (number == CannotOpenDatabase)
        {
            return new EnvironmentProblemException($"SQL Server '{server}': {who} cannot open the database (error 4060).",
                "Check --database, or grant the login access to it.", inner);
        }

        if (PermissionDenied.Contains(number))
        {
            return new EnvironmentProblemException($"SQL Server '{server}' denied a permission the probe needs (error {number}).",
                $"Run 'probe check --engine sqlserver --server {server}' to see which; typically GRANT VIEW SERVER STATE TO [{login ?? "login"}]; and GRANT ALTER ANY EVENT SESSION TO [{login ?? "login"}];", inner);
        }

        if (Network.Contains(number) || socketFailure)
        {
            return new EnvironmentProblemException($"Cannot reach SQL Server '{server}' (error {number}).",
                "Check the server name and port (host,port), that SQL Server accepts TCP connections, and firewalls.", inner);
        }

        return new EnvironmentProblemException($"SQL Server '{server}' returned error {number}.", "Rerun with -v for the server's message.", inner);
    }

    /// <summary>The error for a missing server permission, naming the GRANT that fixes it.</summary>
    public static EnvironmentProblemException MissingPermission(string permission, string server, string? login, string enables) =>
        new($"SQL Server '{server}': {(login is null ? "this login" : $"login '{login}'")} lacks {permission}, needed to {enables}.",
            $"Ask an administrator to run: GRANT {permission} TO [{login ?? "<login>"}];");

    /// <summary>The error for a server older than a feature the capture uses.</summary>
    public static EnvironmentProblemException TooOld(string server, int major, string feature, int neededMajor, string neededName) =>
        new($"SQL Server '{server}' is version {major}; {feature} needs {neededName} (major version {neededMajor}) or later.",
            "Use a newer server, or attach mode without that feature.");
}
