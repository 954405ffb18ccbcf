using System.Buffers.Binary;
using System.IO.Compression;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>Zipped bundles from elsewhere: entries escaping the bundle and sizes that lie are refused by <c>probe analyze</c>.</summary>
public sealed class ZipSafetyTests
{
    [Theory]
    [InlineData("escaping", "refusing to extract")]
    [InlineData("expands-too-far", "over the limit of 2048 MiB per entry")]
    [InlineData("smaller-declared-size", "manifest.json")]
    public async Task Analyze_refuses_an_unsafe_zip_with_exit_2_and_writes_nothing_outside(string kind, string expected)
    {
        var folder = TestData.TempFolder("probe-zip-safety");
        var root = AnalyzeCommandTests.Scenario().Write(folder);
        var zip = Path.Combine(folder, "ticket.zip");
        ZipFile.CreateFromDirectory(root, zip);
        switch (kind)
        {
            case "escaping":
                using (var archive = ZipFile.Open(zip, ZipArchiveMode.Update))
                using (var w = new StreamWriter(archive.CreateEntry("../../escaped.txt").Open()))
                {
                    w.Write("outside");
                }

                break;
            case "expands-too-far":
                // Every entry claims almost 4 GiB: the total passes 16 GiB before anything large is written.
                PatchCentralDirectory(zip, _ => 0xFFFF_FF00u);
                break;
            default:
                // Entries stop at their declared size: nothing is written past it and the cut manifest is refused.
                PatchCentralDirectory(zip, size => size > 64 ? 16u : size);
                break;
        }

        var (exit, _, stderr) = await InProcessProbe.RunAsync("analyze", zip, "-o", Path.Combine(folder, "report"));

        Assert.True(exit == 2, stderr);
        Assert.Contains(expected, stderr);
        Assert.DoesNotContain("   at ", stderr);
        Assert.False(File.Exists(Path.Combine(Path.GetDirectoryName(folder)!, "escaped.txt")));
        Assert.False(Directory.Exists(Path.Combine(folder, "report")));
    }

    /// <summary>Rewrites the uncompressed size of every central-directory record.</summary>
    private static void PatchCentralDirectory(string zip, Func<uint, uint> size)
    {
        var bytes = File.ReadAllBytes(zip);
        for (var i = 0; i + 46 <= bytes.Length; i++)
        {
            if (BinaryPrimitives.ReadUInt32LittleEndian(bytes.AsSpan(i)) == 0x02014b50)
            {
                var at = bytes.AsSpan(i + 24, 4);
                BinaryPrimitives.WriteUInt32LittleEndian(at, size(BinaryPrimitives.ReadUInt32LittleEndian(at)));
            }
        }

        File.WriteAllBytes(zip, bytes);
    }
}
