using System.Diagnostics;
using SqlWaitProbe.Linux.PerfRecord;

namespace SqlWaitProbe.Linux.Tests.PerfRecord;

/// <summary>The perf version decides whether perf record runs without its BPF side-band thread.</summary>
public sealed class PerfVersionTests
{
    [Theory]
    [InlineData("perf version 6.1.187", 6, 1)]
    [InlineData("perf version 5.10.0-rc2\n", 5, 10)]
    [InlineData("perf version 4.19.282", 4, 19)]
    public void The_version_line_is_read(string line, int major, int minor)
    {
        Assert.Equal(new Version(major, minor), PerfVersion.Parse(line));
    }

    [Theory]
    [InlineData(null)]
    [InlineData("")]
    [InlineData("bash: perf: command not found")]
    [InlineData("WARNING: perf not found for kernel 6.8.0")]
    public void Anything_else_is_no_version(string? text)
    {
        Assert.Null(PerfVersion.Parse(text));
    }

    [Fact]
    public void Only_a_perf_that_has_the_option_is_told_to_skip_bpf_events()
    {
        Assert.Empty(PerfVersion.SidebandArguments(null));
        Assert.Empty(PerfVersion.SidebandArguments(new Version(4, 19)));
        Assert.Empty(PerfVersion.SidebandArguments(new Version(5, 0)));
        Assert.Equal(["--no-bpf-event"], PerfVersion.SidebandArguments(new Version(5, 1)));
        Assert.Equal(["--no-bpf-event"], PerfVersion.SidebandArguments(new Version(6, 1)));
    }

    [Fact]
    public async Task The_installed_perf_accepts_what_it_is_given_and_records()
    {
        if (PerfAvailability.Problem() is { } problem)
        {
            Assert.Fail("perf must work on this machine: " + problem);
        }

        // This machine's perf (6.1) has the option; a perf that rejected it would exit with its usage here.
        Assert.NotNull(PerfVersion.Current);
        Assert.Equal(["--no-bpf-event"], PerfVersion.SidebandArguments());
        var data = Path.Combine(SqlWaitProbe.TestSupport.TestData.TempFolder("perf-version"), "true.data");
        using var perf = Process.Start(new ProcessStartInfo("perf", ["record", "-a", "-e", "cpu-clock", "-g", "-F", "99", "-o", data, .. PerfVersion.SidebandArguments(), "--", "true"])
        {
            RedirectStandardError = true,
        })!;
        var stderr = await perf.StandardError.ReadToEndAsync();
        await perf.WaitForExitAsync();
        Assert.True(perf.ExitCode == 0, stderr);
        Assert.True(new FileInfo(data).Length > 0);
    }
}
