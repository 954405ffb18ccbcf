using System.IO.Compression;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Linux.Perf;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Linux.Tests.Perf;

/// <summary>gzip files made of several members (<c>cat a.gz b.gz</c>, bgzip) are whole files, not truncated ones.</summary>
public sealed class GzipMembersTests
{
    [Fact]
    public void A_capture_compressed_as_three_members_folds_exactly_like_the_plain_text()
    {
        var (plain, multi) = Split(members: 3);

        var expected = new PerfScriptReader().Fold(plain);
        var actual = new PerfScriptReader().Fold(multi);

        Assert.True(expected.Values.Sum() > 1000);
        Assert.Equal(string.Empty, FoldedReference.Differences(expected, actual));
    }

    [Fact]
    public void A_multi_member_file_cut_inside_its_last_member_is_still_reported_truncated()
    {
        var (_, multi) = Split(members: 2);
        var bytes = File.ReadAllBytes(multi);
        File.WriteAllBytes(multi, bytes[..(bytes.Length - 2000)]);

        var error = Assert.Throws<BadInputException>(() => new PerfScriptReader().Fold(multi));

        Assert.Contains("truncated", error.Message);
    }

    private static (string Plain, string Multi) Split(int members)
    {
        var folder = TestData.TempFolder();
        string text;
        using (var gz = new GZipStream(File.OpenRead(TestData.Path("perf-script/local__pg15-digest-1session.perf.txt.gz")), CompressionMode.Decompress))
        using (var reader = new StreamReader(gz))
        {
            text = reader.ReadToEnd();
        }

        var plain = Path.Combine(folder, "capture.perf.txt");
        File.WriteAllText(plain, text);
        var multi = Path.Combine(folder, "capture.perf.txt.gz");
        using (var output = File.Create(multi))
        {
            // Cut at arbitrary character positions, as a block compressor does: members need not end on a line.
            var size = text.Length / members + 1;
            for (var start = 0; start < text.Length; start += size)
            {
                using var member = new GZipStream(output, CompressionLevel.Fastest, leaveOpen: true);
                member.Write(System.Text.Encoding.UTF8.GetBytes(text.Substring(start, Math.Min(size, text.Length - start))));
            }
        }

        return (plain, multi);
    }
}
