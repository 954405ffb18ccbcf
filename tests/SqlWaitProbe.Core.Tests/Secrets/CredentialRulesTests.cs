using SqlWaitProbe.Core.Secrets;

namespace SqlWaitProbe.Core.Tests.Secrets;

public sealed class CredentialRulesTests
{
    [Theory]
    [InlineData("Host=db1;Username=me;Password=S3cret Pa55;Database=app", "Host=db1;Username=me;Password=***;Database=app")]
    [InlineData("Server=tcp:db1,1433;User ID=sa;Pwd=\"a;b\"\"c\";Encrypt=True", "Server=tcp:db1,1433;User ID=sa;Pwd=***;Encrypt=True")]
    [InlineData("Data Source=db1;PASSWORD = 'it''s';Initial Catalog=x", "Data Source=db1;PASSWORD = ***;Initial Catalog=x")]
    [InlineData("host=10.0.0.5 port=5432 user=replicator password=ReplPassw0rd application_name=walreceiver", "host=10.0.0.5 port=5432 user=replicator password=*** application_name=walreceiver")]
    [InlineData("host=h password='it\\'s secret' sslmode=require", "host=h password=*** sslmode=require")]
    [InlineData("user=u sslpassword=KeyPass99 sslkey=/k", "user=u sslpassword=*** sslkey=/k")]
    [InlineData("PGPASSWORD=hunter22 psql -h db", "PGPASSWORD=***")]
    [InlineData("postgresql://app:p%40ss/w0rd@db1:5432/app?sslmode=require", "postgresql://app:***@db1:5432/app?sslmode=require")]
    [InlineData("see postgres://u:pw123@[::1]/x and more", "see postgres://u:***@[::1]/x and more")]
    [InlineData("aws_access_key_id=AKIAIOSFODNN7EXAMPLE aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_access_key_id=*** aws_secret_access_key=***")]
    [InlineData("Access Token=eyJ0eXAi.abc;Server=x", "Access Token=***;Server=x")]
    [InlineData(@"SRV*C:\sym*https://acct.blob.core.windows.net/symbols?sv=2022-11-02&sig=k3yB4se64%3D;D:\pdbs", @"SRV*C:\sym*https://acct.blob.core.windows.net/symbols?sv=2022-11-02&sig=***;D:\pdbs")]
    [InlineData("-- Password=S3cretPa55 in a comment\nselect 1", "-- Password=***\nselect 1")]
    [InlineData("connecting with 'Server=db;Password=it's9!' failed", "connecting with 'Server=db;Password=***' failed")]
    [InlineData("primary_conninfo = 'host=h password=p4ss' # set by hand", "primary_conninfo = 'host=h password=***' # set by hand")]
    public void Credentials_are_masked_and_the_rest_is_kept(string text, string expected)
    {
        var counts = new Dictionary<string, int>();
        Assert.Equal(expected, CredentialRules.Redact(text, counts: counts));
        Assert.NotEmpty(counts);
    }

    [Theory]
    [InlineData("password authentication failed for user \"app\"")]
    [InlineData("Host=db1;Password=***;Database=app")]
    [InlineData("postgresql://app@db1:5432/app")]
    [InlineData("password_encryption")]
    [InlineData("--password-env PROBE_PW")]
    [InlineData("Password=;Host=x")]
    public void Text_without_a_credential_is_unchanged_and_nothing_is_counted(string text)
    {
        var counts = new Dictionary<string, int>();
        Assert.Equal(text, CredentialRules.Redact(text, counts: counts));
        Assert.Empty(counts);
    }

    [Fact]
    public void A_known_secret_is_masked_wherever_it_stands_and_counted()
    {
        var counts = new Dictionary<string, int>();
        var text = CredentialRules.Redact("login failed: S3cretPa55, S3cretPa55!; pw", ["S3cretPa55", "pw"], counts);
        Assert.Equal("login failed: ***, ***!; pw", text);
        Assert.Equal(2, counts[CredentialRules.KnownSecret]);
    }

    [Fact]
    public void Settings_keep_their_conninfo_but_not_its_password_and_a_passphrase_command_is_masked_whole()
    {
        var settings = CredentialRules.RedactSettings(new Dictionary<string, string>
        {
            ["postgres.primary_conninfo"] = "host=primary port=5432 user=replicator password=ReplPassw0rd",
            ["postgres.ssl_passphrase_command"] = "echo KeyPhrase",
            ["postgres.password_encryption"] = "scram-sha-256",
            ["postgres.shared_buffers"] = "128MB",
        });
        Assert.Equal("host=primary port=5432 user=replicator password=***", settings["postgres.primary_conninfo"]);
        Assert.Equal("***", settings["postgres.ssl_passphrase_command"]);
        Assert.Equal("scram-sha-256", settings["postgres.password_encryption"]);
        Assert.Equal("128MB", settings["postgres.shared_buffers"]);
    }

    [Fact]
    public void The_secrets_a_text_spells_out_are_found_unquoted()
    {
        Assert.Equal(["a;b\"c", "p%40ss", "p@ss"], CredentialRules.SecretsIn("Pwd=\"a;b\"\"c\"; postgresql://u:p%40ss@h/db"));
    }

    [Fact]
    public void A_command_line_masks_connection_string_passwords_and_the_password_env_value_but_names_the_variable()
    {
        var variable = "PROBE_TEST_PW_" + Guid.NewGuid().ToString("N")[..8];
        Environment.SetEnvironmentVariable(variable, "EnvPassw0rd!");
        try
        {
            string[] args = ["capture", "--server", "host=db1 user=me password=Inline9Pass dbname=app", "--password-env", variable, "--sql", "EnvPassw0rd!.sql"];
            var line = CredentialRules.RedactCommandLine(args);
            Assert.DoesNotContain("Inline9Pass", line);
            Assert.DoesNotContain("EnvPassw0rd!", line);
            Assert.Contains("--password-env " + variable, line);
            Assert.Contains("'host=db1 user=me password=*** dbname=app'", line);
            Assert.Contains("EnvPassw0rd!", CredentialRules.SecretsOfCommandLine(args));
        }
        finally
        {
            Environment.SetEnvironmentVariable(variable, null);
        }
    }

    [Theory]
    [InlineData("mail dba@example.com now", "mail email now")]
    [InlineData("from 10.1.2.3:5432 and 192.168.0.17", "from ip:5432 and ip")]
    [InlineData("host fe80::1ff:fe23:4567:890a and 2001:db8::1", "host ip and ip")]
    public void Addresses_are_replaced_by_their_placeholder(string text, string expected)
    {
        var counts = new Dictionary<string, int>();
        Assert.Equal(expected, CredentialRules.RedactAddresses(text, (kind, _) => kind == CredentialRules.EmailAddress ? "email" : "ip", counts));
        Assert.True(counts.Values.Sum() >= 1);
    }

    [Theory]
    [InlineData("postgres;libc.so.6!memcpy@GLIBC_2.2.5;x 3")]
    [InlineData("2026-01-05T10:00:00.000Z INF 08:24:15Z at 10:00:00")]
    [InlineData("sqlmin!CEDB::Add;std::vector<int>::push_back;cc::Add")]
    [InlineData("127.0.0.1 ::1 0.0.0.0 version 16.0.4135.4 and 15.8")]
    public void Symbols_times_versions_and_loopback_addresses_are_not_addresses(string text)
    {
        Assert.Equal(text, CredentialRules.RedactAddresses(text, (_, _) => "X"));
    }
}
