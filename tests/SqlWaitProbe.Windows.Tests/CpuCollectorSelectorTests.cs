using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Windows.Etw;
using SqlWaitProbe.Windows.Selection;

namespace SqlWaitProbe.Windows.Tests;

public sealed class CpuCollectorSelectorTests
{
    [Theory]
    [InlineData(null, null, true, CpuStackSource.Etw, OsCounterSource.Pdh, "CPU stacks: ETW kernel sampling at 1.0 ms (TraceEvent)")]
    [InlineData("etw", null, true, CpuStackSource.Etw, OsCounterSource.Pdh, "CPU stacks: ETW kernel sampling at 1.0 ms (TraceEvent)")]
    [InlineData("ETW", 2000, true, CpuStackSource.Etw, OsCounterSource.Pdh, "CPU stacks: ETW kernel sampling at 0.5 ms (TraceEvent)")]
    [InlineData("etw", 997, true, CpuStackSource.Etw, OsCounterSource.Pdh, "CPU stacks: ETW kernel sampling at 1.003 ms (TraceEvent)")]
    [InlineData("none", null, true, CpuStackSource.None, OsCounterSource.Pdh, "CPU stacks: none (--cpu none)")]
    [InlineData(null, null, false, CpuStackSource.Perf, OsCounterSource.Proc, "CPU stacks: perf record -a -g -F 499")]
    [InlineData("perf", 499, false, CpuStackSource.Perf, OsCounterSource.Proc, "CPU stacks: perf record -a -g -F 499")]
    [InlineData("none", 997, false, CpuStackSource.None, OsCounterSource.Proc, "CPU stacks: none (--cpu none)")]
    public void Chooses_collectors_per_os_and_option(string? cpu, int? hz, bool windows, CpuStackSource stacks, OsCounterSource counters, string description)
    {
        var choice = CpuCollectorSelector.Select(cpu, hz, windows);

        Assert.Equal(stacks, choice.Stacks);
        Assert.Equal(counters, choice.Counters);
        Assert.Equal(description, choice.Description);
        Assert.Equal(windows ? "OS counters: PDH, 10 counters every second (pdh.csv, series.csv)" : "OS counters: /proc every second (series.csv)", choice.CountersDescription);
    }

    [Fact]
    public void Etw_off_windows_is_bad_input_with_the_linux_alternative()
    {
        var error = Assert.Throws<BadInputException>(() => CpuCollectorSelector.Select("etw", null, isWindows: false));
        Assert.Equal("ETW CPU sampling needs Windows; on Linux use --cpu perf", error.OneLine);
    }

    [Fact]
    public void Perf_on_windows_is_bad_input_with_the_windows_alternative()
    {
        var error = Assert.Throws<BadInputException>(() => CpuCollectorSelector.Select("perf", null, isWindows: true));
        Assert.Equal("perf CPU sampling needs Linux; on Windows use --cpu etw", error.OneLine);
    }

    [Theory]
    [InlineData("dtrace", null, "--cpu must be none, etw or perf (got 'dtrace')")]
    [InlineData(null, 0, "--sample-hz must be a positive number of samples per second (got 0)")]
    [InlineData("perf", -5, "--sample-hz must be a positive number of samples per second (got -5)")]
    public void Bad_values_are_bad_input(string? cpu, int? hz, string message)
    {
        Assert.Equal(message, Assert.Throws<BadInputException>(() => CpuCollectorSelector.Select(cpu, hz, isWindows: false)).OneLine);
        Assert.Equal(message, Assert.Throws<BadInputException>(() => CpuCollectorSelector.Select(cpu, hz, isWindows: true)).OneLine);
    }

    [Theory]
    [InlineData(null, 1.0)]
    [InlineData(1000, 1.0)]
    [InlineData(100, 10.0)]
    [InlineData(8000, 0.125)]
    [InlineData(20000, 0.125)]
    [InlineData(1, 1000.0)]
    public void Sample_rate_maps_to_an_interval_windows_accepts(int? hz, double expectedMSec) =>
        Assert.Equal(expectedMSec, CpuCollectorSelector.EtwIntervalMSec(hz), 9);

    [Fact]
    public void This_machine_gets_the_collectors_of_its_os()
    {
        var choice = CpuCollectorSelector.ForThisMachine(null, null);
        Assert.Equal(OperatingSystem.IsWindows() ? CpuStackSource.Etw : CpuStackSource.Perf, choice.Stacks);
    }

    [Fact]
    public void Etw_availability_refuses_off_windows_and_passes_on_an_elevated_windows_prompt()
    {
        if (OperatingSystem.IsWindows())
        {
            // Hosted Windows CI runners run elevated; a developer's normal prompt gets the elevation error instead.
            var error = Record.Exception(EtwAvailability.Ensure);
            Assert.True(error is null or EnvironmentProblemException, error?.ToString());
            return;
        }

        var refusal = Assert.Throws<BadInputException>(EtwAvailability.Ensure);
        Assert.Equal(CpuCollectorSelector.EtwNeedsWindows, refusal.OneLine);
    }
}
