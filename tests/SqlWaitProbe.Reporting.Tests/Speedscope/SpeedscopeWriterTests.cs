using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Reporting.Speedscope;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Reporting.Tests.Speedscope;

public sealed class SpeedscopeWriterTests
{
    public static TheoryData<string> ValidFiles()
    {
        var data = new TheoryData<string>();
        foreach (var file in Directory.GetFiles(TestData.Path("speedscope"), "*.json").Order(StringComparer.Ordinal))
        {
            data.Add(Path.GetFileName(file));
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(ValidFiles))]
    public void Speedscope_sample_files_read_with_the_same_model(string name)
    {
        using var stream = File.OpenRead(TestData.Path("speedscope/" + name));
        var file = SpeedscopeWriter.Read(stream);
        Assert.Equal(SpeedscopeFile.SchemaUrl, file.Schema);
        Assert.NotEmpty(file.Shared.Frames);
        Assert.NotEmpty(file.Profiles);
        foreach (var profile in file.Profiles)
        {
            Assert.Contains(profile.Type, new[] { "sampled", "evented" });
            if (profile.Type == "sampled")
            {
                Assert.Equal(profile.Samples!.Count, profile.Weights!.Count);
                Assert.All(profile.Samples.SelectMany(s => s), i => Assert.InRange(i, 0, file.Shared.Frames.Count - 1));
            }
            else
            {
                Assert.All(profile.Events!, e => Assert.InRange(e.Frame, 0, file.Shared.Frames.Count - 1));
            }
        }
    }

    [Fact]
    public void Written_file_round_trips_to_the_folded_totals_per_process()
    {
        var profile = new StackProfile();
        using (var reader = new StreamReader(TestData.Path("folded/inputs/inferno__base-flames.txt")))
        {
            FoldedStackFormat.ReadInto(reader, "base", profile, firstFrameIsProcess: true);
        }

        profile.Add("other", [new Frame("[kernel.kallsyms]", "schedule", FrameKind.Kernel)], 7);
        using var buffer = new MemoryStream();
        SpeedscopeWriter.Write(profile, "base", buffer);
        buffer.Position = 0;
        var file = SpeedscopeWriter.Read(buffer);
        Assert.StartsWith("probe@", file.Exporter);
        var expected = profile.Entries.GroupBy(e => e.Process).ToDictionary(g => g.Key, g => g.Sum(e => e.Weight));
        Assert.Equal(expected.Count, file.Profiles.Count);
        foreach (var p in file.Profiles)
        {
            Assert.Equal("sampled", p.Type);
            Assert.Equal(expected[p.Name], (long)p.Weights!.Sum());
            Assert.Equal(expected[p.Name], (long)p.EndValue);
        }

        // Samples are root first: the first frame of each base-flames sample is the stack's first frame after the process.
        var kernel = file.Shared.Frames.Single(f => f.Name.StartsWith("schedule", StringComparison.Ordinal));
        Assert.Equal("[kernel.kallsyms]", kernel.File);
    }
}
