using SqlWaitProbe.Windows.Etw;

namespace SqlWaitProbe.Windows.Tests;

public sealed class EtwSessionNamesTests
{
    [Fact]
    public void Sessions_are_named_after_the_run_from_windows_8()
    {
        Assert.Equal("SqlWaitProbe-7f3a9c", EtwSessionNames.For("7f3a9c", new Version(10, 0, 20348)));
        Assert.Equal("SqlWaitProbe-7f3a9c", EtwSessionNames.For("7f3a9c", new Version(6, 2, 9200)));
    }

    [Fact]
    public void Before_windows_8_the_kernel_session_has_its_fixed_name()
    {
        Assert.Equal("NT Kernel Logger", EtwSessionNames.For("7f3a9c", new Version(6, 1, 7601)));
    }

    [Theory]
    [InlineData("SqlWaitProbe-7f3a9c", true)]
    [InlineData("SqlWaitProbe-", false)]
    [InlineData("NT Kernel Logger", false)]
    [InlineData("PerfViewSession", false)]
    [InlineData("sqlwaitprobe-7f3a9c", false)]
    public void Leftovers_are_recognised_by_prefix(string name, bool expected) =>
        Assert.Equal(expected, EtwSessionNames.IsProbeSession(name));
}
