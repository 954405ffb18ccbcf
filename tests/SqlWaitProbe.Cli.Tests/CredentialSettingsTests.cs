using System.IO.Compression;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// A server setting that carries a credential (<c>primary_conninfo</c> with a replication password) is masked when the
/// capture records it, and a bundle that still holds one (written by an older probe) shows it masked in analyze and
/// compare and packs without it under <c>--redact</c>. Before, the password went into manifest.json's configuration,
/// survived <c>pack --redact</c> and appeared in compare.md, compare.html and comparison.json.
/// </summary>
[Collection(ScramServerCollection.Name)]
public sealed class CredentialSettingsTests(ScramPostgresFixture server)
{
    private const string Conninfo = "host=primary.example port=5432 user=replicator password=*** application_name=standby1";

    [Fact]
    public async Task A_replication_password_in_primary_conninfo_is_masked_at_capture_and_everywhere_a_bundle_is_shown()
    {
        var folder = TestData.TempFolder("conninfo");
        var bundle = Path.Combine(folder, "bundle");
        var capture = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(3),
            "capture", "--server", server.AdoConnectionString, "--sql", TestData.IdleWorkload(), "--threads", "2", "--duration", "1500ms", "--no-baseline", "--cpu", "none", "-v", "-o", bundle);
        Assert.True(capture.Exit == 0, capture.Err);

        var manifest = CaptureBundle.ReadManifest(Path.Combine(bundle, BundlePaths.Manifest));
        Assert.Equal(Conninfo, manifest.Configuration["postgres.primary_conninfo"]);
        AssertNowhere(capture.Out + capture.Err, Directory.GetFiles(bundle, "*", SearchOption.AllDirectories));

        // The same bundle as an older probe wrote it, the password in the clear.
        var older = Path.Combine(folder, "older");
        CopyFolder(bundle, older);
        Directory.Delete(Path.Combine(older, "report"), recursive: true);
        BundleEdit.EditManifest(older, text => text.Replace("password=***", "password=" + ScramPostgresFixture.ReplicationPassword, StringComparison.Ordinal));
        Assert.Contains(ScramPostgresFixture.ReplicationPassword, File.ReadAllText(Path.Combine(older, BundlePaths.Manifest)));

        var analyze = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(2), "analyze", older);
        Assert.True(analyze.Exit == 0, analyze.Err);
        var compared = Path.Combine(folder, "compared");
        var compare = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(2), "compare", bundle, older, "-o", compared);
        Assert.True(compare.Exit == 0, compare.Err);
        var zip = Path.Combine(folder, "redacted.zip");
        var pack = await ProbeProcess.RunAsync(TimeSpan.FromMinutes(2), "pack", older, "--redact", "-o", zip);
        Assert.True(pack.Exit == 0, pack.Err);

        foreach (var file in new[] { "compare.md", "compare.html", "comparison.json" })
        {
            Assert.True(File.Exists(Path.Combine(compared, file)), file);
        }

        Assert.Contains(Conninfo, File.ReadAllText(Path.Combine(compared, "comparison.json")));
        AssertNowhere(analyze.Out + analyze.Err + compare.Out + compare.Err + pack.Out + pack.Err,
            Directory.GetFiles(compared, "*", SearchOption.AllDirectories).Concat(Directory.GetFiles(Path.Combine(older, "report"), "*", SearchOption.AllDirectories)));
        using var archive = ZipFile.OpenRead(zip);
        Assert.NotEmpty(archive.Entries);
        foreach (var entry in archive.Entries)
        {
            using var reader = new StreamReader(entry.Open());
            Assert.DoesNotContain(ScramPostgresFixture.ReplicationPassword, reader.ReadToEnd());
        }
    }

    private static void AssertNowhere(string printed, IEnumerable<string> files)
    {
        Assert.DoesNotContain(ScramPostgresFixture.ReplicationPassword, printed);
        foreach (var file in files)
        {
            Assert.False(File.ReadAllText(file).Contains(ScramPostgresFixture.ReplicationPassword, StringComparison.Ordinal), file);
        }
    }

    private static void CopyFolder(string from, string to)
    {
        foreach (var file in Directory.GetFiles(from, "*", SearchOption.AllDirectories))
        {
            var target = Path.Combine(to, Path.GetRelativePath(from, file));
            Directory.CreateDirectory(Path.GetDirectoryName(target)!);
            File.Copy(file, target);
        }
    }
}
