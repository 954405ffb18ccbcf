using System.Xml.Linq;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Reporting.FlameGraphs;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Reporting.Tests.FlameGraphs;

public sealed class FlameGraphRendererTests
{
    private static readonly XNamespace Svg = "http://www.w3.org/2000/svg";

    [Fact]
    public void Renders_a_real_folded_profile_as_well_formed_svg_with_every_heavy_frame()
    {
        var profile = Load("folded/inputs/inferno__base-flames.txt");
        var svg = new FlameGraphRenderer().Render(profile, "base & flames");
        var doc = XDocument.Parse(svg);
        Assert.Equal(Svg + "svg", doc.Root!.Name);
        Assert.Contains("base &amp; flames", svg);
        var frames = Frames(doc).ToList();
        Assert.True(frames.Count > 100);

        // The root spans the whole width and carries the total.
        var root = frames.Single(f => f.Title.StartsWith("all\n", StringComparison.Ordinal));
        Assert.Contains(profile.TotalWeight.ToString(System.Globalization.CultureInfo.InvariantCulture) + " samples (100%)", root.Title);
        Assert.Equal(1180, root.Width, 1);
    }

    [Fact]
    public void Is_self_contained_and_interactive()
    {
        var svg = new FlameGraphRenderer().Render(Load("folded/inputs/speedscope__simple.txt"), "t");
        Assert.DoesNotContain("href", svg);
        Assert.DoesNotContain("<image", svg);
        Assert.Contains("function zoom(", svg);
        Assert.Contains("function search(", svg);
        // The search box is the graph's own; no dialog (blocked in the report's sandboxed frames), no Ctrl+F taken.
        Assert.Contains("<input xmlns=\"http://www.w3.org/1999/xhtml\" id=\"term\"", svg);
        Assert.DoesNotContain("prompt(", svg);
        Assert.DoesNotContain("ctrlKey", svg);
        Assert.Contains("id=\"reset\"", svg);
        Assert.Contains("Matched: ", svg);
    }

    [Fact]
    public void Kernel_jit_and_user_frames_get_different_colour_families()
    {
        var profile = new StackProfile();
        profile.Add("app", [new Frame("app", "main", FrameKind.User), new Frame("perf-1.map", "jitted", FrameKind.Jit), new Frame("[kernel.kallsyms]", "do_syscall_64", FrameKind.Kernel)], 10);
        var frames = Frames(XDocument.Parse(new FlameGraphRenderer().Render(profile, "t"))).ToDictionary(f => f.Title.Split('\n')[0]);
        var (kr, kg, kb) = Rgb(frames["do_syscall_64"].Fill);
        var (jr, jg, jb) = Rgb(frames["jitted"].Fill);
        var (ur, ug, ub) = Rgb(frames["main"].Fill);
        Assert.True(kr >= 230 && kg is >= 100 and <= 170 && kb <= 40, "kernel is orange");
        Assert.True(jg > jr && jg > jb, "jit is green");
        Assert.True(ur >= 205 && ub <= 80, "user is warm");
        Assert.Contains("[kernel.kallsyms] [kernel]", frames["do_syscall_64"].Title);
    }

    [Fact]
    public void Narrow_frames_are_dropped_so_a_million_sample_profile_stays_small()
    {
        // 1,000,000 samples over 200,000 distinct stacks: most are far narrower than 0.1 px.
        var profile = new StackProfile();
        var random = new Random(7);
        var frames = new Frame[64];
        for (var i = 0; i < frames.Length; i++)
        {
            frames[i] = new Frame("lib" + (i % 5) + ".so", "function_" + i, i % 7 == 0 ? FrameKind.Kernel : FrameKind.User);
        }

        var stack = new List<Frame>();
        for (var i = 0; i < 200_000; i++)
        {
            stack.Clear();
            var depth = 3 + random.Next(20);
            for (var d = 0; d < depth; d++)
            {
                stack.Add(frames[random.Next(frames.Length)]);
            }

            profile.Add("db", stack, 5);
        }

        var svg = new FlameGraphRenderer().Render(profile, "million");
        Assert.Equal(1_000_000, profile.TotalWeight);
        Assert.True(svg.Length < 2_000_000, $"{svg.Length} characters");
        var drawn = Frames(XDocument.Parse(svg)).ToList();
        Assert.All(drawn, f => Assert.True(f.Width >= 0.1 - 0.01));
        Assert.True(drawn.Count > 1000);
    }

    [Fact]
    public void Differential_graph_colours_growth_red_shrink_blue_and_reports_per_execution_change()
    {
        var before = new StackProfile();
        before.Add("db", [new Frame("m", "grow", FrameKind.User)], 100);
        before.Add("db", [new Frame("m", "shrink", FrameKind.User)], 100);
        before.Add("db", [new Frame("m", "same", FrameKind.User)], 100);
        var after = new StackProfile();
        after.Add("db", [new Frame("m", "grow", FrameKind.User)], 600);
        after.Add("db", [new Frame("m", "shrink", FrameKind.User)], 100);
        after.Add("db", [new Frame("m", "same", FrameKind.User)], 300);

        // 10 executions before, 30 after: per execution grow 10 → 20, shrink 10 → 3.33, same 10 → 10.
        var frames = Frames(XDocument.Parse(new FlameGraphRenderer().RenderDiff(before, 10, after, 30, "d"))).ToDictionary(f => f.Title.Split('\n')[0]);
        Assert.Contains("before 10, after 20", frames["grow"].Title);
        Assert.Contains("+100%", frames["grow"].Title);
        Assert.Contains("-66.67%", frames["shrink"].Title);
        Assert.Equal("rgb(255,255,255)", frames["same"].Fill);
        var (gr, gg, _) = Rgb(frames["grow"].Fill);
        var (sr, _, sb) = Rgb(frames["shrink"].Fill);
        Assert.True(gr == 255 && gg < 255);
        Assert.True(sb == 255 && sr < 255);

        // Widths come from the after profile: grow holds 60% of it.
        Assert.Equal(0.6 * 1180, frames["grow"].Width, 1);
    }

    private static StackProfile Load(string relative)
    {
        var profile = new StackProfile();
        using var reader = new StreamReader(TestData.Path(relative));
        FoldedStackFormat.ReadInto(reader, relative, profile, firstFrameIsProcess: true);
        return profile;
    }

    private static IEnumerable<(string Title, double Width, string Fill)> Frames(XDocument doc) =>
        doc.Descendants(Svg + "g").Where(g => g.Element(Svg + "rect") is not null && g.Element(Svg + "title") is not null).Select(g => (
            g.Element(Svg + "title")!.Value,
            double.Parse(g.Element(Svg + "rect")!.Attribute("width")!.Value, System.Globalization.CultureInfo.InvariantCulture),
            g.Element(Svg + "rect")!.Attribute("fill")!.Value));

    private static (int R, int G, int B) Rgb(string fill)
    {
        var parts = fill["rgb(".Length..^1].Split(',').Select(int.Parse).ToArray();
        return (parts[0], parts[1], parts[2]);
    }

    [Fact]
    public void Nanosecond_weights_read_as_cpu_milliseconds_never_as_samples()
    {
        var profile = new SqlWaitProbe.Core.Stacks.StackProfile();
        profile.Add("postgres", [new("postgres", "_start", SqlWaitProbe.Core.Stacks.FrameKind.User), new("libcrypto.so.3", "SHA256_Update", SqlWaitProbe.Core.Stacks.FrameKind.User)], 12_501_001_904);
        var renderer = new FlameGraphRenderer().WithWeightUnit("nanoseconds");

        var svg = renderer.Render(profile, "load");
        Assert.Contains("12501.002 ms (100%)", svg);
        Assert.DoesNotContain(" samples", svg);

        var diff = renderer.RenderDiff(profile, 10, profile, 20, "diff");
        Assert.Contains("before 1250.1, after 625.05 ms per execution", diff);
        Assert.DoesNotContain("samples", diff);
    }
}
