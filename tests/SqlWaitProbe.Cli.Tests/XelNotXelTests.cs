using System.Security.Cryptography;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// <c>probe xe read</c> of a file too short to be an extended-event file (at most its 512-byte header) is exit 2,
/// "not an XEL file", with no output; it used to exit 0 with a CSV of only its header line.
/// </summary>
public sealed class XelNotXelTests
{
    [Theory]
    [InlineData("empty", 0)]
    [InlineData("random", 100)]
    [InlineData("random", 512)]
    [InlineData("text", 0)]
    [InlineData("header-only", 512)]
    public async Task A_file_of_at_most_a_header_is_not_an_xel_file(string kind, int bytes)
    {
        var folder = TestData.TempFolder("probe-xel");
        var file = Path.Combine(folder, "x.xel");
        var content = kind switch
        {
            "random" => RandomNumberGenerator.GetBytes(bytes),
            "text" => "utc,event\nnot an event file\n"u8.ToArray(),
            "header-only" => File.ReadAllBytes(TestData.Path("xel/sqltoolsservice__TestXel_0.xel"))[..bytes],
            _ => [],
        };
        File.WriteAllBytes(file, content);
        var csv = Path.Combine(folder, "x.csv");

        foreach (var format in new[] { "csv", "json" })
        {
            var (exit, stdout, stderr) = await InProcessProbe.RunAsync("xe", "read", file, "--format", format, "-o", csv);

            Assert.True(exit == 2, $"{kind} {format}: exit {exit}\n{stdout}{stderr}");
            Assert.Contains("not an XEL file", stderr);
            Assert.Single(stderr.Trim().Split('\n'));
            Assert.False(File.Exists(csv));
        }
    }
}
