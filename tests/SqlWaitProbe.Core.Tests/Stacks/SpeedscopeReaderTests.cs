using System.Text;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Core.Tests.Stacks;

public sealed class SpeedscopeReaderTests
{
    private static SpeedscopeImport Read(string json) => SpeedscopeReader.Read(new MemoryStream(Encoding.UTF8.GetBytes(json)), "test.json");

    [Fact]
    public void Fractional_times_become_whole_numbers_in_a_finer_unit()
    {
        var import = Read("""{"shared":{"frames":[{"name":"a"},{"name":"b"}]},"profiles":[{"type":"sampled","name":"p","unit":"milliseconds","samples":[[0],[0,1]],"weights":[0.25,1.5]}]}""");
        Assert.Equal("microseconds", import.Unit);
        Assert.Equal(1750, import.Profile.TotalWeight);
    }

    [Fact]
    public void Frames_keep_their_module_and_kind()
    {
        var import = Read("""{"shared":{"frames":[{"name":"main","file":"/usr/bin/postgres"},{"name":"ntdll.dll!RtlUserThreadStart"},{"name":"clear_page [kernel]","file":"[kernel.kallsyms]"}]},"profiles":[{"type":"sampled","name":"postgres","unit":"none","samples":[[0,1,2]],"weights":[3]}]}""");
        var (process, stack, weight) = Assert.Single(import.Profile.Entries);
        Assert.Equal("postgres", process);
        Assert.Equal(3, weight);
        Assert.Equal(
            [new Frame("postgres", "main", FrameKind.User), new Frame("ntdll.dll", "RtlUserThreadStart", FrameKind.User), new Frame("[kernel.kallsyms]", "clear_page", FrameKind.Kernel)],
            import.Profile.FramesOf(stack).ToArray());
    }

    [Theory]
    [InlineData("""{"profiles":[]}""", "shared.frames")]
    [InlineData("""{"shared":{"frames":[{"name":"a"}]},"profiles":[{"type":"sampled","name":"p","samples":[[3]],"weights":[1]}]}""", "refers to frame 3")]
    [InlineData("""{"shared":{"frames":[{"name":"a"}]},"profiles":[{"type":"sampled","name":"p","samples":[[0]],"weights":[1,2]}]}""", "1 samples but 2 weights")]
    [InlineData("""{"shared":{"frames":[{"name":"a"}]},"profiles":[{"type":"evented","name":"p","events":[{"type":"O","frame":0,"at":5},{"type":"C","frame":0,"at":2}]}]}""", "back in time")]
    [InlineData("""{"shared":{"frames":[{"name":"a"}]},"profiles":[{"type":"sampled","name":"p","unit":"seconds","samples":[[0]],"weights":[1]},{"type":"sampled","name":"q","unit":"bytes","samples":[[0]],"weights":[1]}]}""", "different units")]
    [InlineData("""{"shared":{"frames":[{"name":"a"}]""", "not valid JSON")]
    public void Broken_files_are_bad_input(string json, string said)
    {
        var e = Assert.Throws<BadInputException>(() => Read(json));
        Assert.Contains(said, e.Message);
    }
}
