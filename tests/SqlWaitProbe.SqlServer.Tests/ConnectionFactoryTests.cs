using Microsoft.Data.SqlClient;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.SqlServer.Connection;

namespace SqlWaitProbe.SqlServer.Tests;

public sealed class ConnectionFactoryTests
{
    private static SqlServerConnectionFactory Factory(string server, string? user = null, string? password = null, string? database = null) =>
        new(new SqlServerConnectionSettings { Server = server, User = user, Password = password, Database = database, RunId = "r1", Encrypt = true, TrustServerCertificate = true });

    [Fact]
    public void A_server_name_gets_integrated_auth_the_application_name_and_no_pooling_for_workload_connections()
    {
        var b = new SqlConnectionStringBuilder(Factory("db1,1433").ConnectionString("SqlWaitProbe", pooling: false));
        Assert.Equal("db1,1433", b.DataSource);
        Assert.True(b.IntegratedSecurity);
        Assert.Equal("SqlWaitProbe-r1", b.ApplicationName);
        Assert.False(b.Pooling);
        Assert.True(b.Encrypt);
        Assert.True(b.TrustServerCertificate);
        Assert.Equal("SqlWaitProbe", b.InitialCatalog);
    }

    [Theory]
    [InlineData("db1", false, "Optional")]
    [InlineData("db1", true, "Mandatory")]
    [InlineData("Server=db1;Encrypt=Strict", false, "Strict")]
    [InlineData("Server=db1;Encrypt=True", false, "Mandatory")]
    [InlineData("Server=db1;Encrypt=False", true, "Mandatory")]
    public void Encryption_is_what_encrypt_or_the_connection_string_asks_for_and_optional_otherwise(string server, bool encrypt, string expected)
    {
        // SqlClient's own default would be Mandatory, which refuses the self-signed certificates most servers have.
        var factory = new SqlServerConnectionFactory(new SqlServerConnectionSettings { Server = server, RunId = "r1", Encrypt = encrypt });
        var b = new SqlConnectionStringBuilder(factory.ConnectionString("master", pooling: false));
        Assert.Equal(SqlConnectionEncryptOption.Parse(expected), b.Encrypt);
        Assert.False(b.TrustServerCertificate);
    }

    [Fact]
    public void Sql_authentication_takes_user_and_password_and_a_connection_string_keeps_its_catalog()
    {
        var f = Factory("Server=tcp:db2;Initial Catalog=Sales;Encrypt=False", user: "probe", password: "s3cret;pw");
        var b = new SqlConnectionStringBuilder(f.ConnectionString("master", pooling: true));
        Assert.Equal("probe", b.UserID);
        Assert.Equal("s3cret;pw", b.Password);
        Assert.False(b.IntegratedSecurity);
        Assert.Equal("Sales", f.WorkloadDatabase);
        Assert.Equal("master", b.InitialCatalog);
        Assert.Equal("SqlWaitProbe", Factory("db1").WorkloadDatabase);
        Assert.Equal("Other", Factory("db1", database: "Other").WorkloadDatabase);
    }

    [Theory]
    [InlineData("Server=db1.database.windows.net;Authentication=Active Directory Default", "Active Directory Default")]
    [InlineData("Server=db1;Authentication=ActiveDirectoryIntegrated", "Active Directory Integrated")]
    [InlineData("Server=db1;Authentication=Active Directory Managed Identity;User ID=client-id", "Active Directory Managed Identity")]
    [InlineData("Server=db1;Authentication=Active Directory Service Principal;User ID=app;Password=s3cret", "Active Directory Service Principal")]
    public void Entra_id_authentication_without_its_provider_is_refused_with_what_to_use_instead(string server, string spelled)
    {
        // No provider ships in this build (SqlClient 7 keeps them in Microsoft.Data.SqlClient.Extensions.Azure).
        Assert.Null(SqlAuthenticationProvider.GetProvider(SqlAuthenticationMethod.ActiveDirectoryDefault));

        var e = Assert.Throws<BadInputException>(() => Factory(server));

        Assert.StartsWith($"--server asks for Authentication={spelled} (Microsoft Entra ID)", e.Message, StringComparison.Ordinal);
        Assert.Contains("Microsoft.Data.SqlClient.Extensions.Azure", e.Message, StringComparison.Ordinal);
        Assert.Contains("--user with --password-env", e.Message, StringComparison.Ordinal);
        Assert.DoesNotContain("s3cret", e.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', e.Message);
    }

    [Fact]
    public void Sql_password_authentication_named_in_the_connection_string_still_connects_as_before()
    {
        var b = new SqlConnectionStringBuilder(Factory("Server=db1;Authentication=Sql Password;User ID=probe;Password=pw").ConnectionString("master", pooling: false));
        Assert.Equal(SqlAuthenticationMethod.SqlPassword, b.Authentication);
        Assert.Equal("probe", b.UserID);
    }

    [Theory]
    [InlineData("Server=db;User ID=sa;Password=Hunter2!;Encrypt=True", "Hunter2!")]
    [InlineData("Server=db;PWD='a;b'';c';App=x", "a;b")]
    [InlineData("server=db; pwd=\"qq\"\"zz\"", "qq")]
    [InlineData("Data Source=db;Access Token=eyJ0eXAi.abc", "eyJ0eXAi")]
    public void Redact_removes_every_form_of_password_and_token(string connectionString, string secret)
    {
        var redacted = SqlServerConnectionFactory.Redact(connectionString);
        Assert.DoesNotContain(secret, redacted);
        Assert.Contains("=***", redacted);
        Assert.Contains("db", redacted);
    }

    [Fact]
    public void Redact_works_inside_log_and_error_text()
    {
        var message = "connecting with 'Server=db;User ID=sa;Password=Hunter2!' failed";
        Assert.Equal("connecting with 'Server=db;User ID=sa;Password=***' failed", SqlServerConnectionFactory.Redact(message));
    }

    [Fact]
    public void A_connection_string_with_the_password_built_in_never_leaks_through_the_parse_error()
    {
        var e = Assert.Throws<BadInputException>(() => Factory("Server=db;Password=Hunter2!;Bogus Key=1"));
        Assert.DoesNotContain("Hunter2!", e.Message);
    }

    [Theory]
    [InlineData(18456, "rejected", "--password-env")]
    [InlineData(-2, "Cannot reach", "port")]
    [InlineData(53, "Cannot reach", "port")]
    [InlineData(258, "Cannot reach", "port")]
    [InlineData(297, "denied", "GRANT VIEW SERVER STATE TO [probe];")]
    [InlineData(300, "denied", "GRANT ALTER ANY EVENT SESSION TO [probe];")]
    [InlineData(4060, "cannot open the database", "--database")]
    [InlineData(SqlErrorMap.UntrustedCertificate, "certificate this machine does not trust", "--trust-server-certificate")]
    public void Error_numbers_map_to_one_line_with_the_remedy(int number, string problem, string remedy)
    {
        var e = SqlErrorMap.ToEnvironmentProblem(number, "db1", "probe");
        Assert.Contains(problem, e.Message);
        Assert.Contains(remedy, e.OneLine);
        Assert.DoesNotContain('\n', e.OneLine);
    }

    [Fact]
    public void Missing_permission_and_old_version_name_the_fix()
    {
        Assert.Equal("SQL Server 'db1': login 'probe' lacks VIEW SERVER STATE, needed to read waits. Ask an administrator to run: GRANT VIEW SERVER STATE TO [probe];",
            SqlErrorMap.MissingPermission("VIEW SERVER STATE", "db1", "probe", "read waits").OneLine);
        Assert.Contains("SQL Server 2016", SqlErrorMap.TooOld("db1", 12, "session waits", 13, "SQL Server 2016").OneLine);
    }
}
