using System.IO.Compression;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Core.Tests.Bundle;

public class CaptureBundleTests
{
    private static string WriteBundle()
    {
        var root = Path.Combine(TestData.TempFolder(), "bundle");
        var writer = new BundleWriter(root);
        File.WriteAllText(writer.PathFor(BundlePaths.Executions("load")), "session,start_ms,end_ms,rows,error\n1,0,10,1,\n");
        writer.WriteManifest(new BundleManifest { Engine = "postgres", Phases = [new BundlePhase { Name = "load", Threads = 1 }] }, hashFiles: true);
        return root;
    }

    [Fact]
    public void Folder_and_zip_open_with_the_same_manifest_and_verified_hashes()
    {
        var root = WriteBundle();
        var zip = root + ".zip";
        ZipFile.CreateFromDirectory(root, zip);

        using var folder = CaptureBundle.Open(root);
        using var zipped = CaptureBundle.Open(zip);
        Assert.Equal("postgres", zipped.Manifest.Engine);
        Assert.Single(folder.Manifest.Files);
        Assert.Empty(folder.VerifyFiles());
        Assert.Empty(zipped.VerifyFiles());
        Assert.True(zipped.Has(BundlePaths.Executions("load")));
    }

    [Fact]
    public void Changed_file_fails_verification()
    {
        var root = WriteBundle();
        File.AppendAllText(Path.Combine(root, "phases", "load", "executions.csv"), "2,0,5,1,\n");
        using var bundle = CaptureBundle.Open(root);
        Assert.Contains(bundle.VerifyFiles(), p => p.StartsWith("phases/load/executions.csv", StringComparison.Ordinal));
    }

    [Fact]
    public void Zip_entry_escaping_the_bundle_is_refused()
    {
        var zip = Path.Combine(TestData.TempFolder(), "evil.zip");
        using (var archive = ZipFile.Open(zip, ZipArchiveMode.Create))
        {
            using var w = new StreamWriter(archive.CreateEntry("../../escaped.txt").Open());
            w.Write("x");
        }

        var e = Assert.Throws<BadInputException>(() => CaptureBundle.Open(zip));
        Assert.Contains("outside the bundle", e.Message);
    }

    [Fact]
    public void Truncated_zip_is_bad_input()
    {
        var root = WriteBundle();
        var zip = root + ".zip";
        ZipFile.CreateFromDirectory(root, zip);
        var bytes = File.ReadAllBytes(zip);
        File.WriteAllBytes(zip, bytes[..(bytes.Length / 2)]);
        Assert.Throws<BadInputException>(() => CaptureBundle.Open(zip));
    }

    [Theory]
    [InlineData("{ not json")]
    [InlineData("{\"schemaVersion\": 0}")]
    [InlineData("{\"schemaVersion\": 99}")]
    [InlineData("[]")]
    public void Broken_manifest_is_bad_input_with_one_line(string manifest)
    {
        var root = TestData.TempFolder();
        File.WriteAllText(Path.Combine(root, BundlePaths.Manifest), manifest);
        var e = Assert.Throws<BadInputException>(() => CaptureBundle.Open(root));
        Assert.DoesNotContain('\n', e.OneLine);
        Assert.Contains("manifest", e.OneLine);
    }

    [Fact]
    public void Missing_path_is_bad_input()
    {
        var e = Assert.Throws<BadInputException>(() => CaptureBundle.Open("/nonexistent/bundle"));
        Assert.Contains("no such bundle", e.Message);
    }

    [Fact]
    public void Writer_refuses_to_overwrite_an_existing_bundle()
    {
        var root = WriteBundle();
        Assert.Throws<BadInputException>(() => new BundleWriter(root));
    }
}
