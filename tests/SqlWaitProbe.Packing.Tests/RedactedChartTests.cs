using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Packing;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Modules;

namespace SqlWaitProbe.Packing.Tests;

public sealed class RedactedChartTests
{
    [Fact]
    public void A_chart_png_is_left_out_when_its_svg_held_a_redacted_name_and_kept_otherwise()
    {
        var root = new CraftedBundle(host: "dbhost01").Phase("load", 1, 10, 10).Write();
        using var bundle = CaptureBundle.Open(root);
        var copy = TestData.TempFolder("redact");
        var charts = Directory.CreateDirectory(Path.Combine(copy, "report", "charts")).FullName;
        File.WriteAllText(Path.Combine(charts, "named.svg"), "<svg><text>waits on dbhost01</text></svg>");
        File.WriteAllBytes(Path.Combine(charts, "named.png"), [137, 80, 78, 71]);
        File.WriteAllText(Path.Combine(charts, "plain.svg"), "<svg><text>waits over time</text></svg>");
        File.WriteAllBytes(Path.Combine(charts, "plain.png"), [137, 80, 78, 71]);

        var removed = new BundleRedactor(bundle.Manifest, null, Registered.Redaction).RedactFolder(copy);

        Assert.Equal(["report/charts/named.png"], removed);
        Assert.False(File.Exists(Path.Combine(charts, "named.png")));
        Assert.DoesNotContain("dbhost01", File.ReadAllText(Path.Combine(charts, "named.svg")));
        Assert.True(File.Exists(Path.Combine(charts, "plain.png")));
    }
}
