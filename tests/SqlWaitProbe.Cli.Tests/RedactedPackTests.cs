using System.Diagnostics;
using System.IO.Compression;
using System.Text;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// <c>probe pack --redact</c> of a real capture (embedded PostgreSQL, perf on- and off-CPU stacks) as a ticket would
/// carry it: no local path in any entry, compressed ones included, and nothing from outside the bundle even when
/// links to outside files are planted in it.
/// </summary>
[System.Runtime.Versioning.SupportedOSPlatform("linux")]
public sealed class RedactedPackTests
{
    private const string OutsideText = "OUTSIDE-THE-BUNDLE-5e1f";

    [Fact]
    public async Task A_redacted_pack_of_a_real_capture_holds_no_local_path_and_no_file_from_outside()
    {
        var folder = TestData.TempFolder("probe-redact");
        var home = Path.Combine(folder, "home", "pat-tester");
        Directory.CreateDirectory(home);
        var runtime = Path.Combine(folder, "private-runtime");
        Directory.CreateDirectory(runtime, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        var dir = Path.Combine(folder, "captures-of-pat", "bundle");
        var env = new Dictionary<string, string> { ["HOME"] = home, [RuntimeFolder.OverrideVariable] = runtime };
        using (var capture = ProbeProcess.Start(env, "capture", "--engine", "postgres", "--workload", "hashbytes", "--threads", "2", "--duration", "3s",
                   "--scale", "0.05", "--no-baseline", "--offcpu", "on", "-o", dir))
        {
            var (exit, _, stderr) = await capture.WaitAsync(TimeSpan.FromMinutes(3));
            Assert.True(exit == 0, stderr);
        }

        // The bundle as captured names local folders (so the test can fail), and its off-CPU stacks are gzip text with paths.
        Assert.Contains(dir, File.ReadAllText(Path.Combine(dir, "capture.log")));
        var offCpu = Path.Combine(dir, "phases", "load", "offcpu", "perf.script.gz");
        Assert.Contains("/usr/", GunzipText(File.ReadAllBytes(offCpu)));

        // Links to files outside, planted where a packer that walks the folder would pick them up.
        var outside = Path.Combine(folder, "outside");
        Directory.CreateDirectory(outside);
        File.WriteAllText(Path.Combine(outside, "secret.txt"), OutsideText + "\n");
        File.WriteAllText(Path.Combine(outside, "secret.csv"), "a,b\n" + OutsideText + ",1\n");
        File.CreateSymbolicLink(Path.Combine(dir, "phases", "load", "cpu", "notes.txt"), Path.Combine(outside, "secret.txt"));
        HardLink(Path.Combine(outside, "secret.csv"), Path.Combine(dir, "phases", "load", "extra.csv"));

        var zip = Path.Combine(folder, "ticket.zip");
        using (var pack = ProbeProcess.Start(env, "pack", dir, "--redact", "-o", zip))
        {
            var (exit, stdout, stderr) = await pack.WaitAsync(TimeSpan.FromMinutes(2));
            Assert.True(exit == 0, stderr);
            Assert.Contains("the manifest does not list", stdout);
        }

        using (var archive = ZipFile.OpenRead(zip))
        {
            Assert.DoesNotContain(archive.Entries, e => e.FullName.EndsWith("notes.txt", StringComparison.Ordinal) || e.FullName.EndsWith("extra.csv", StringComparison.Ordinal));
            Assert.Contains(archive.Entries, e => e.FullName == "phases/load/offcpu/perf.script.gz");
            foreach (var entry in archive.Entries)
            {
                using var stream = entry.Open();
                using var bytes = new MemoryStream();
                stream.CopyTo(bytes);
                var text = entry.FullName.EndsWith(".gz", StringComparison.Ordinal) ? GunzipText(bytes.ToArray()) : Encoding.UTF8.GetString(bytes.ToArray());
                foreach (var local in new[] { dir, folder, runtime, home, "pat-tester", OutsideText })
                {
                    Assert.False(text.Contains(local, StringComparison.Ordinal), $"{entry.FullName} holds '{local}'");
                }
            }

            using var redactedOffCpu = archive.GetEntry("phases/load/offcpu/perf.script.gz")!.Open();
            using var copy = new MemoryStream();
            redactedOffCpu.CopyTo(copy);
            Assert.Contains("/redacted/", GunzipText(copy.ToArray()));
        }

        // A listed file swapped for a hard link to a copy outside (same bytes, so its hash still matches) is refused.
        var waits = Path.Combine(dir, "phases", "load", "waits.csv");
        var copyOutside = Path.Combine(outside, "waits.csv");
        File.Copy(waits, copyOutside);
        File.Delete(waits);
        HardLink(copyOutside, waits);
        var second = Path.Combine(folder, "ticket2.zip");
        using var refused = ProbeProcess.Start(env, "pack", dir, "--redact", "-o", second);
        var (refusedExit, _, refusedErr) = await refused.WaitAsync(TimeSpan.FromMinutes(2));
        Assert.True(refusedExit == 2, $"exit {refusedExit}: {refusedErr}");
        Assert.Contains("phases/load/waits.csv", refusedErr);
        Assert.Contains("hard link", refusedErr);
        Assert.False(File.Exists(second));
        Assert.Empty(Directory.GetFiles(folder, "*.tmp"));
    }

    private static string GunzipText(byte[] gz)
    {
        using var reader = new StreamReader(new GZipStream(new MemoryStream(gz), CompressionMode.Decompress), Encoding.UTF8);
        return reader.ReadToEnd();
    }

    private static void HardLink(string existing, string link)
    {
        using var ln = Process.Start(new ProcessStartInfo("ln", [existing, link]) { UseShellExecute = false })!;
        ln.WaitForExit();
        Assert.Equal(0, ln.ExitCode);
    }
}
