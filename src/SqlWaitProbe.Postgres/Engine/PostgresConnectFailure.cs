using System.Net.Sockets;
using System.Security.Authentication;
using Npgsql;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Postgres.Engine;

/// <summary>
/// A failed connection to PostgreSQL in the user's terms: each cause a DBA meets first gets its own cause and fix,
/// told apart by what failed (the server's SQLSTATE, the socket's error, the exception's type, what the connection
/// string holds), never by the driver's wording. A password the server asks for and was not given points to
/// <c>--password-env</c>; a TLS certificate that <c>SSL Mode=VerifyCA</c> or <c>VerifyFull</c> cannot verify points to
/// <c>Root Certificate=</c>; a database or role the server does not know, a port nothing listens on and a host name
/// no resolver knows each name what to check. All are exit 1: only the server can tell.
/// </summary>
public static class PostgresConnectFailure
{
    /// <summary>The variable libpq and Npgsql read a password from when the connection string has none.</summary>
    public const string PasswordVariable = "PGPASSWORD";

    /// <summary>The one-line error for <paramref name="error"/>, raised connecting to <paramref name="where"/> with <paramref name="connectionString"/>; <paramref name="otherwise"/> is the hint of any other cause.</summary>
    public static EnvironmentProblemException Explain(Exception error, string connectionString, string where, string otherwise)
    {
        ArgumentNullException.ThrowIfNull(error);
        var builder = new NpgsqlConnectionStringBuilder(connectionString);
        var said = PostgresConnectionStrings.RedactText(error.Message.Split('\n')[0]);
        var role = string.IsNullOrEmpty(builder.Username) ? "the login role" : "role " + builder.Username;
        var passwordGiven = !string.IsNullOrEmpty(builder.Password) || !string.IsNullOrEmpty(Environment.GetEnvironmentVariable(PasswordVariable));
        var askPassword = $"Put the password of {role} in an environment variable and name it with --password-env VARIABLE (or set {PasswordVariable}, or add it to ~/.pgpass); a password is never given on the command line.";

        // The server turned the password down, or asked for one the client could not send (Npgsql refuses before
        // sending anything: no server error, no underlying socket or TLS error).
        if (error is PostgresException { SqlState: "28P01" })
        {
            return new EnvironmentProblemException($"cannot connect to {where}: {said}",
                passwordGiven ? $"Check the password of {role} (--password-env names the variable that holds it)." : askPassword);
        }

        if (error is NpgsqlException and not PostgresException && error.InnerException is null && !passwordGiven)
        {
            return new EnvironmentProblemException($"cannot connect to {where}: the server asks {role} for a password and none was given ({said})", askPassword);
        }

        switch (error)
        {
            case PostgresException { SqlState: "3D000" }:
                return new EnvironmentProblemException($"cannot connect to {where}: {said}",
                    "Name a database that exists on the server (Database= or dbname= in --server; psql -l lists them); in attach mode --database only filters sessions and needs CONNECT there.");
            case PostgresException { SqlState: "28000" }:
                return new EnvironmentProblemException($"cannot connect to {where}: {said}",
                    $"Check the role name (Username= or user= in --server), or ask an administrator for a pg_hba.conf line that lets {role} connect from this host to that database.");
            case PostgresException { SqlState: "53300" }:
                return new EnvironmentProblemException($"cannot connect to {where}: {said}",
                    "The server is at max_connections: retry when clients have disconnected, or ask an administrator for a reserved connection (pg_use_reserved_connections).");
        }

        if ((error as SocketException ?? Inner<SocketException>(error)) is { } socket)
        {
            var at = string.IsNullOrEmpty(builder.Host) ? "the default socket" : $"{builder.Host} port {builder.Port}";
            switch (socket.SocketErrorCode)
            {
                case SocketError.ConnectionRefused or SocketError.AddressNotAvailable:
                    return new EnvironmentProblemException($"cannot connect to {where}: nothing accepts connections at {at} (connection refused)",
                        "Check the host and port in --server, that the server runs, and that its listen_addresses and port include them.");
                case SocketError.HostNotFound or SocketError.TryAgain or SocketError.NoData:
                    return new EnvironmentProblemException($"cannot connect to {where}: the host name {builder.Host} is not known to this machine's resolver",
                        "Check the host name in --server (Host= or host=), or give its IP address.");
                case SocketError.TimedOut or SocketError.HostUnreachable or SocketError.NetworkUnreachable:
                    return new EnvironmentProblemException($"cannot connect to {where}: {at} does not answer ({socket.SocketErrorCode})",
                        "Check the host and port, and that no firewall drops the connection; Timeout= in --server waits longer.");
            }
        }

        if (error is TimeoutException || Inner<TimeoutException>(error) is not null)
        {
            return new EnvironmentProblemException($"cannot connect to {where}: no answer within the connection timeout ({said})",
                "Check the host and port, and that no firewall drops the connection; Timeout= in --server waits longer.");
        }

        if (Inner<AuthenticationException>(error) is { } tls)
        {
            if (builder.SslMode is SslMode.VerifyCA or SslMode.VerifyFull)
            {
                var trusted = builder.RootCertificate is { Length: > 0 } root ? $"the Root Certificate given ({Path.GetFileName(root)})" : "a certificate authority this machine trusts (a self-signed certificate or a private CA)";
                var name = builder.SslMode == SslMode.VerifyFull ? $", or it does not name the host {builder.Host}" : "";
                return new EnvironmentProblemException(
                    $"cannot connect to {where}: SSL Mode={builder.SslMode} could not verify the server's certificate: it is not signed by {trusted}{name}",
                    builder.RootCertificate is { Length: > 0 }
                        ? "Give as Root Certificate the certificate of the CA that signed the server's certificate (the server's own when it is self-signed), and connect by a host name the certificate names."
                        : "Add Root Certificate=/path/to/root.crt to --server (libpq: sslrootcert=/path/to/root.crt): the certificate of the CA that signed the server's certificate, or the server's own when it is self-signed. SSL Mode=Require encrypts without checking who the server is.");
            }

            return new EnvironmentProblemException($"cannot connect to {where}: the TLS handshake failed: {PostgresConnectionStrings.RedactText(tls.Message.Split('\n')[0])}", otherwise);
        }

        return new EnvironmentProblemException($"cannot connect to {where}: {said}", otherwise);
    }

    private static T? Inner<T>(Exception error)
        where T : Exception
    {
        for (var e = error.InnerException; e is not null; e = e.InnerException)
        {
            if (e is T found)
            {
                return found;
            }
        }

        return null;
    }
}
