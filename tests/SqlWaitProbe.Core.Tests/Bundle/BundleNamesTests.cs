using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Core.Tests.Bundle;

public sealed class BundleNamesTests
{
    [Theory]
    [InlineData("load", true)]
    [InlineData("t16", true)]
    [InlineData("perf.script.gz", true)]
    [InlineData("..", false)]
    [InlineData(".hidden", false)]
    [InlineData("a/b", false)]
    [InlineData("a\\b", false)]
    [InlineData("../../../../tmp/x/y", false)]
    [InlineData("x\ny", false)]
    [InlineData("", false)]
    public void Only_plain_names_pass(string name, bool valid) => Assert.Equal(valid, BundleNames.IsValidName(name));

    [Theory]
    [InlineData("phases/load/executions.csv", true)]
    [InlineData("phases/../manifest.json", false)]
    [InlineData("/etc/shadow", false)]
    [InlineData("phases//x", false)]
    public void Relative_paths_are_plain_names_joined_by_slashes(string path, bool valid) => Assert.Equal(valid, BundleNames.IsValidRelativePath(path));

    [Fact]
    public void Resolve_refuses_what_would_leave_the_root()
    {
        var root = Path.Combine(Path.GetTempPath(), "probe-names");
        Assert.Equal(Path.Combine(root, "phases", "load"), BundleNames.Resolve(root, "phases/load", "x"));
        Assert.Throws<BadInputException>(() => BundleNames.Resolve(root, "../x", "x"));
    }

    [Fact]
    public void A_line_over_the_limit_is_bad_input_naming_the_variable_and_shorter_lines_read_as_usual()
    {
        var limits = new BundleLimits { LineChars = 1024 };
        using var ok = new BoundedLineReader(new StringReader("a\r\nb\n\nc"), "f.csv", limits);
        Assert.Equal("a|b||c", string.Join("|", ok.ReadLine(), ok.ReadLine(), ok.ReadLine(), ok.ReadLine()));
        Assert.Null(ok.ReadLine());

        using var tooLong = new BoundedLineReader(new StringReader("h\n" + new string('0', 5000)), "f.csv", limits);
        tooLong.ReadLine();
        var e = Assert.Throws<BadInputException>(() => tooLong.ReadLine());
        Assert.Contains(BundleLimits.LineVariable, e.OneLine);
        Assert.StartsWith("f.csv:2:", e.OneLine);
    }
}
