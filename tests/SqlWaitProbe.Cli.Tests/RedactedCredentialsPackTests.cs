using System.IO.Compression;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// <c>pack --redact</c> replaces every credential-shaped string in every text file it packs — the password an older
/// bundle's <c>--server</c> option still spells out, wherever it recurs (capture.log, an error in executions.csv, a
/// workload.sql comment), a libpq URI's password, e-mail and IP addresses, AWS access keys — and lists how many of each
/// kind it replaced, never the values. Before, only names from the manifest were mapped to placeholders and
/// <c>Password=S3cretPa55</c> stayed in capture.log, executions.csv and workload.sql.
/// </summary>
public sealed class RedactedCredentialsPackTests
{
    private const string Password = "S3cretPa55";
    private const string UriPassword = "UriPa55w0rd";
    private const string Email = "dba.oncall@example.com";
    private const string AwsKey = "AKIAIOSFODNN7EXAMPLE";
    private static readonly string[] Ips = ["10.20.30.40", "192.168.10.20", "fe80::1ff:fe23:4567:890a"];

    [Fact]
    public async Task Every_credential_shaped_string_is_replaced_and_the_kinds_are_listed_with_counts()
    {
        var root = new CraftedBundle("postgres", "postgres")
            .Phase("load", 2, 20, 10).Sessions("load", 300)
            .Stack("load", "postgres;postgres!PostgresMain;postgres!ExecScan", 40)
            .Raw("workload.sql", $"-- run as {Email}, password {Password}\nSELECT md5(repeat('x', 100));\n")
            .Write();
        // An older probe stored the connection string with its password.
        BundleEdit.EditManifest(root, text => text.Replace("\"database\": \"salesdb\"", $"\"database\": \"salesdb\", \"--server\": \"Host=dbhost01;Username=probe_user;Password={Password}\"", StringComparison.Ordinal));
        File.AppendAllText(Path.Combine(root, BundlePaths.Log),
            $"2026-01-05T10:00:01.000Z INF connecting with Host=dbhost01;Password={Password}\n"
            + $"2026-01-05T10:00:02.000Z INF replica postgresql://replicator:{UriPassword}@{Ips[0]}:5432/app from {Ips[1]} and [{Ips[2]}]\n"
            + $"2026-01-05T10:00:03.000Z WRN mail {Email} about key {AwsKey}\n");
        File.AppendAllText(Path.Combine(root, BundlePaths.Executions("load")), $"1,200,210,0,login failed for probe_user with {Password}\n");
        BundleEdit.Rehash(root);
        Assert.Equal(0, (await InProcessProbe.RunAsync("analyze", root)).Exit);
        var zip = Path.Combine(Path.GetDirectoryName(root)!, "ticket.zip");

        var (exit, stdout, stderr) = await InProcessProbe.RunAsync("pack", root, "-o", zip, "--redact");

        Assert.True(exit == 0, stderr);
        using (var archive = ZipFile.OpenRead(zip))
        {
            var texts = archive.Entries.Where(e => e.Length > 0 && !e.FullName.EndsWith(".png", StringComparison.Ordinal))
                .ToDictionary(e => e.FullName, e => new StreamReader(e.Open()).ReadToEnd());
            foreach (var (name, text) in texts)
            {
                foreach (var secret in new[] { Password, UriPassword, Email, AwsKey }.Concat(Ips))
                {
                    Assert.False(text.Contains(secret, StringComparison.OrdinalIgnoreCase), $"{name} holds {secret}");
                }
            }

            Assert.Contains("login failed for login-1 with ***", texts[BundlePaths.Executions("load")]);
            Assert.Contains("postgresql://replicator:***@ip-1:5432/app from ip-2 and [ip-3]", texts[BundlePaths.Log]);
            Assert.Contains("mail email-1 about key ***", texts[BundlePaths.Log]);
            Assert.Contains("-- run as email-1, password ***", texts[BundlePaths.WorkloadSql]);
            var listing = texts["REDACTED.txt"];
            Assert.Contains("Credentials and addresses replaced, by kind (the values are not listed):", listing);
            Assert.Contains("× e-mail address", listing);
            Assert.Contains("× IP address", listing);
            Assert.Contains("× AWS access key id", listing);
            Assert.Contains("× known password standing alone", listing);
            Assert.Contains("× password in a URI", listing);
            Assert.Contains("× password or secret in a key=value pair", listing);
        }

        Assert.Contains("replaced (counts, not the values): ", stdout);
        Assert.Contains("3 × IP address", stdout);
        foreach (var secret in new[] { Password, UriPassword, Email, AwsKey }.Concat(Ips))
        {
            Assert.DoesNotContain(secret, stdout + stderr);
        }

        // The redacted bundle is still a bundle: it verifies and analyses.
        using var reopened = CaptureBundle.Open(zip);
        Assert.Empty(reopened.VerifyFiles());
        Assert.Equal(0, (await InProcessProbe.RunAsync("analyze", zip, "-o", Path.Combine(Path.GetDirectoryName(root)!, "redacted-report"))).Exit);
    }
}
