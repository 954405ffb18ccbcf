using Microsoft.Data.SqlClient;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Secrets;

namespace SqlWaitProbe.SqlServer.Connection;

/// <summary>Builds SqlClient connection strings from the capture options and opens connections with clear errors.</summary>
public sealed class SqlServerConnectionFactory
{
    private readonly SqlServerConnectionSettings _settings;
    private readonly SqlConnectionStringBuilder _base;

    /// <summary>Validates the settings (a malformed connection string is bad input).</summary>
    public SqlServerConnectionFactory(SqlServerConnectionSettings settings)
    {
        _settings = settings;
        _base = Parse(settings);
    }

    /// <summary>The settings this factory was built from.</summary>
    public SqlServerConnectionSettings Settings => _settings;

    /// <summary>The server as the user named it (data source only, no secrets).</summary>
    public string DataSource => _base.DataSource;

    /// <summary>The database workload tables live in.</summary>
    public string WorkloadDatabase => _settings.Database
        ?? (string.IsNullOrEmpty(_base.InitialCatalog) ? SqlServerConnectionSettings.DefaultDatabase : _base.InitialCatalog);

    /// <summary>The connection string for <paramref name="database"/> (<c>master</c> for control connections).</summary>
    /// <param name="database">Initial catalog.</param>
    /// <param name="pooling">False for workload connections: a pooled reset clears <c>sys.dm_exec_session_wait_stats</c>.</param>
    public string ConnectionString(string database, bool pooling)
    {
        var b = new SqlConnectionStringBuilder(_base.ConnectionString)
        {
            InitialCatalog = database,
            ApplicationName = _settings.ApplicationName,
            Pooling = pooling,
        };
        return b.ConnectionString;
    }

    /// <summary>Opens a connection, turning connection failures into one-line environment errors.</summary>
    public async Task<SqlConnection> OpenAsync(string database, bool pooling, CancellationToken cancellationToken)
    {
        var connection = new SqlConnection(ConnectionString(database, pooling));
        try
        {
            await connection.OpenAsync(cancellationToken);
            return connection;
        }
        catch (SqlException e)
        {
            await connection.DisposeAsync();
            throw SqlErrorMap.ToEnvironmentProblem(e, DataSource, _settings.User ?? _base.UserID);
        }
    }

    /// <summary>Removes passwords and access tokens from a connection string or any text that holds one.</summary>
    public static string Redact(string? text) =>
        string.IsNullOrEmpty(text) ? string.Empty : CredentialRules.Redact(text);

    private static SqlConnectionStringBuilder Parse(SqlServerConnectionSettings settings)
    {
        SqlConnectionStringBuilder b;
        if (settings.Server.Contains('=', StringComparison.Ordinal))
        {
            try
            {
                b = new SqlConnectionStringBuilder(settings.Server);
            }
            catch (Exception e) when (e is ArgumentException or FormatException or KeyNotFoundException)
            {
                // SqlClient's message names the part it could not read, which may be a piece of a password quoted
                // wrongly: it is shown only when the string holds no password.
                throw new BadInputException("--server looks like a connection string but SqlClient cannot parse it"
                    + (CredentialRules.SecretsIn(settings.Server).Count == 0 ? ": " + Redact(e.Message.Split('\n')[0]) : " (a value holding ';' or a quote needs double quotes, with \"\" for a quote inside)"));
            }
        }
        else
        {
            if (string.IsNullOrWhiteSpace(settings.Server))
            {
                throw new BadInputException("--server is empty; give a server name (host, host,port or host\\instance) or a connection string");
            }

            b = new SqlConnectionStringBuilder { DataSource = settings.Server };
        }

        if (settings.User is not null)
        {
            b.UserID = settings.User;
            b.IntegratedSecurity = false;
        }

        if (settings.Password is not null)
        {
            b.Password = settings.Password;
        }

        RefuseAuthenticationWithoutProvider(b.Authentication);
        if (string.IsNullOrEmpty(b.UserID) && b.Authentication == SqlAuthenticationMethod.NotSpecified)
        {
            b.IntegratedSecurity = true;
        }

        // SqlClient 4+ encrypts by default and then insists on a trusted certificate. The probe keeps its own contract:
        // encryption when --encrypt asks for it, or as the connection string says; otherwise it is optional (the
        // server decides), as in SqlClient's older releases and most on-premises servers' self-signed setups.
        if (settings.Encrypt)
        {
            b.Encrypt = SqlConnectionEncryptOption.Mandatory;
        }
        else if (!b.ShouldSerialize("Encrypt"))
        {
            b.Encrypt = SqlConnectionEncryptOption.Optional;
        }

        if (settings.TrustServerCertificate)
        {
            b.TrustServerCertificate = true;
        }

        return b;
    }

    /// <summary>
    /// SqlClient 7 moved Microsoft Entra ID (Active Directory) authentication into the separate
    /// Microsoft.Data.SqlClient.Extensions.Azure package, which this build does not carry: without a provider SqlClient
    /// would fail only when connecting, with a message about a package the user cannot add to the tool. The method is
    /// refused before anything starts, with what to connect with instead; a build that carries a provider passes.
    /// </summary>
    internal static void RefuseAuthenticationWithoutProvider(SqlAuthenticationMethod method)
    {
        if (method is SqlAuthenticationMethod.NotSpecified or SqlAuthenticationMethod.SqlPassword || SqlAuthenticationProvider.GetProvider(method) is not null)
        {
            return;
        }

        throw new BadInputException($"--server asks for Authentication={Spelled(method)} (Microsoft Entra ID), which this build of probe cannot do: SqlClient 7 needs the Microsoft.Data.SqlClient.Extensions.Azure package for it; connect with Windows authentication (no --user, no Authentication=) or a SQL login (--user with --password-env)");
    }

    // The connection-string spelling, as the user wrote it (ActiveDirectoryDefault → Active Directory Default).
    private static string Spelled(SqlAuthenticationMethod method)
    {
        var name = method.ToString();
        return name.StartsWith("ActiveDirectory", StringComparison.Ordinal)
            ? "Active Directory " + System.Text.RegularExpressions.Regex.Replace(name["ActiveDirectory".Length..], "(?<=[a-z])(?=[A-Z])", " ")
            : name;
    }
}
