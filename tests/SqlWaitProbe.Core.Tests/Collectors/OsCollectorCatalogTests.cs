using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Modules;
using SqlWaitProbe.Windows.Etw;


namespace SqlWaitProbe.Core.Tests.Collectors;

/// <summary>The OS collector catalogs as both engines and the dry run ask them: validate, then choose, never throw.</summary>
public sealed class OsCollectorCatalogTests
{
    private static readonly OsCollectorCatalog Linux = OsSelection.Catalog(windows: false, etwProblem: () => "not here");
    private static readonly OsCollectorCatalog Windows = OsSelection.Catalog(windows: true, perfProblem: () => "not here");

    [Theory]
    [InlineData(null, false, null, "perf", "CPU stacks: perf record -a -e cpu-clock --call-graph dwarf,8192 -F 499 -m 4M --max-size=1024M")]
    [InlineData("perf", false, 997, "perf", "CPU stacks: perf record -a -e cpu-clock --call-graph dwarf,8192 -F 997 -m 4M --max-size=1024M")]
    [InlineData("none", false, null, "perf", "CPU stacks: none (--cpu none)")]
    [InlineData(null, true, null, "etw", "CPU stacks: ETW kernel sampling at 1.0 ms (TraceEvent)")]
    [InlineData("etw", true, 2000, "etw", "CPU stacks: ETW kernel sampling at 0.5 ms (TraceEvent)")]
    [InlineData("ETW", true, 997, "etw", "CPU stacks: ETW kernel sampling at 1.003 ms (TraceEvent)")]
    [InlineData("none", true, null, "etw", "CPU stacks: none (--cpu none)")]
    public void Stack_collector_follows_cpu_option_and_platform(string? cpu, bool windows, int? hz, string name, string description)
    {
        var options = OsSelection.Values(cpu: cpu, hz: hz);
        Assert.Null(OsSelection.Validate(options, windows));

        var stacks = OsSelection.Select(options, "sqlservr", serverIsLocal: true, processPerSession: false, windows ? Windows : Linux)[^1];

        Assert.Equal(name, stacks.Name);
        Assert.StartsWith(description, stacks.Description, StringComparison.Ordinal);
        Assert.Equal(cpu?.ToLowerInvariant() == "none", !stacks.Runs);
    }

    [Theory]
    [InlineData("etw", false, "ETW CPU sampling needs Windows; on Linux use --cpu perf")]
    [InlineData("perf", true, "perf CPU sampling needs Linux; on Windows use --cpu etw")]
    [InlineData("dtrace", false, "--cpu must be none, etw or perf (got 'dtrace')")]
    [InlineData("dtrace", true, "--cpu must be none, etw or perf (got 'dtrace')")]
    public void A_collector_the_os_lacks_is_an_input_error_with_the_alternative(string cpu, bool windows, string message) =>
        Assert.Equal(message, OsSelection.Validate(OsSelection.Values(cpu: cpu), windows));

    [Theory]
    [InlineData(0, 1024, "--sample-hz must be from 1 to 50000")]
    [InlineData(50_001, 1024, "--sample-hz must be from 1 to 50000")]
    [InlineData(499, 0, "--max-perf-mb must be at least 1")]
    public void Out_of_range_limits_are_input_errors(int hz, int maxPerf, string message) =>
        Assert.Equal(message, OsSelection.Validate(OsSelection.Values(hz: hz, maxPerf: maxPerf), windows: false));

    [Theory]
    [InlineData(null, 1.0)]
    [InlineData(1000, 1.0)]
    [InlineData(100, 10.0)]
    [InlineData(8000, 0.125)]
    [InlineData(20000, 0.125)]
    [InlineData(1, 1000.0)]
    public void Sample_rate_maps_to_an_etw_interval_windows_accepts(int? hz, double expectedMSec) =>
        Assert.Equal(expectedMSec, EtwModule.IntervalMSec(OsSelection.Values(hz: hz)), 9);

    [Fact]
    public void Unavailable_perf_is_a_failed_collector_with_the_reason_not_an_exception()
    {
        var facts = OsSelection.Catalog(windows: false, perfProblem: () => "perf is not installed. Install it with: sudo apt-get install -y linux-perf");

        var stacks = OsSelection.Select(OsSelection.Values(), "postgres", serverIsLocal: true, processPerSession: true, facts)[^1];

        Assert.False(stacks.Runs);
        Assert.Equal(CollectorStatus.Failed, stacks.Status);
        Assert.Contains("linux-perf", stacks.Reason, StringComparison.Ordinal);
        Assert.Contains("would fail", stacks.Description, StringComparison.Ordinal);
    }

    [Fact]
    public void Only_a_collector_the_user_named_refuses_the_capture()
    {
        var facts = OsSelection.Catalog(windows: false, perfProblem: () => "perf is not installed");

        Assert.Equal("perf is not installed", facts.Refusal(OsSelection.Values(cpu: "perf")));
        Assert.Null(facts.Refusal(OsSelection.Values()));
        Assert.Null(facts.Refusal(OsSelection.Values(cpu: "none")));
    }

    [Fact]
    public void A_remote_server_skips_what_would_observe_only_this_machine()
    {
        var choices = OsSelection.Select(OsSelection.Values(offCpu: "on"), "postgres", serverIsLocal: false, processPerSession: true, Linux);

        Assert.Equal(["os", "backend-cpu", "offcpu", "perf"], choices.Select(c => c.Name));
        Assert.True(choices[0].Runs, "machine counters still describe this machine");
        Assert.All(choices.Skip(1), c => Assert.Equal(CollectorStatus.Skipped, c.Status));
        Assert.Contains("another machine", choices[2].Reason, StringComparison.Ordinal);
        Assert.Contains("another machine", choices[3].Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Engines_without_a_process_per_session_get_no_backend_cpu()
    {
        var linux = OsSelection.Select(OsSelection.Values(), "sqlservr", serverIsLocal: true, processPerSession: false, Linux);
        var windows = OsSelection.Select(OsSelection.Values(), "sqlservr", serverIsLocal: true, processPerSession: false, Windows);

        Assert.Equal(["os", "perf"], linux.Select(c => c.Name));
        Assert.Equal(["pdh", "offcpu", "etw"], windows.Select(c => c.Name));
        Assert.All(linux.Concat(windows).Where(c => c.Name != "offcpu"), c => Assert.True(c.Runs, c.Reason));
        Assert.Equal("--offcpu off", windows[1].Reason);
    }

    [Fact]
    public void This_machine_answers_without_throwing()
    {
        var choices = OsSelection.Select(OsSelection.Values(), "postgres", serverIsLocal: true, processPerSession: true, Registered.OsCollectors);
        Assert.Equal(OperatingSystem.IsWindows() ? "etw" : "perf", choices[^1].Name);
        Assert.All(choices.Where(c => !c.Runs), c => Assert.False(string.IsNullOrWhiteSpace(c.Reason)));
    }

    [Fact]
    public void Off_cpu_stacks_run_for_engines_with_a_process_per_session_when_switched_on()
    {
        var on = OsSelection.Select(OsSelection.Values(offCpu: "on"), "postgres", serverIsLocal: true, processPerSession: true, Linux);
        var off = OsSelection.Select(OsSelection.Values(), "postgres", serverIsLocal: true, processPerSession: true, Linux);

        var offCpu = Assert.Single(on, c => c.Name == "offcpu");
        Assert.True(offCpu.Runs, offCpu.Reason);
        Assert.Contains("sched:sched_switch -g", offCpu.Description, StringComparison.Ordinal);
        Assert.Equal("--offcpu off", Assert.Single(off, c => c.Name == "offcpu").Reason);
        Assert.Equal("--offcpu must be on or off (got 'maybe')", OsSelection.Validate(OsSelection.Values(offCpu: "maybe"), windows: false));
    }

    [Fact]
    public void Windows_off_cpu_stacks_ride_on_the_etw_session_and_the_dry_run_names_its_keywords()
    {
        var choices = OsSelection.Select(OsSelection.Values(offCpu: "on"), "sqlservr", serverIsLocal: true, processPerSession: false, Windows);

        Assert.Equal(["pdh", "offcpu", "etw"], choices.Select(c => c.Name));
        var offCpu = choices[1];
        Assert.True(offCpu.Runs, offCpu.Reason);
        Assert.Contains("kernel keywords Profile, ImageLoad, Process, Thread, ContextSwitch, Dispatcher (stacks on Profile, ContextSwitch)", offCpu.Description, StringComparison.Ordinal);
        Assert.Contains("offcpu/intervals.csv", offCpu.Description, StringComparison.Ordinal);
        Assert.Contains("ContextSwitch, Dispatcher (stacks on Profile, ContextSwitch); ", choices[2].Description, StringComparison.Ordinal);
        Assert.Null(offCpu.Title);
        Assert.Equal("CPU stacks", choices[2].Title);

        var cpuOnly = OsSelection.Select(OsSelection.Values(), "sqlservr", serverIsLocal: true, processPerSession: false, Windows);
        Assert.Contains("kernel keywords Profile, ImageLoad, Process, Thread (stacks on Profile); ", cpuOnly[^1].Description, StringComparison.Ordinal);
    }

    [Fact]
    public void The_etw_dry_run_states_the_cap_on_each_phases_trace_file_that_stops_a_leftover_session()
    {
        var stacks = OsSelection.Select(OsSelection.Values(), "sqlservr", serverIsLocal: true, processPerSession: false, Windows)[^1];

        Assert.Equal("etw", stacks.Name);
        Assert.EndsWith("; each phase's .etl stops growing at 4096 MB (ETW MaximumFileSize), so a session a killed capture leaves behind stops writing by itself",
            stacks.Description, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("none", true, null, "skipped", "they need the ETW session, which is off: --cpu none")]
    [InlineData(null, false, null, "skipped", "they need the ETW session, which is off: the server is on another machine")]
    [InlineData(null, true, "run as administrator", "failed", "run as administrator")]
    public void Windows_off_cpu_stacks_do_not_run_without_the_etw_session_and_say_why(string? cpu, bool local, string? etwProblem, string status, string reason)
    {
        var facts = OsSelection.Catalog(windows: true, perfProblem: () => "not here", etwProblem: () => etwProblem);

        var offCpu = OsSelection.Select(OsSelection.Values(offCpu: "on", cpu: cpu), "sqlservr", local, processPerSession: false, facts)
            .Single(c => c.Name == "offcpu");

        Assert.False(offCpu.Runs);
        Assert.Equal(status, offCpu.Status);
        Assert.StartsWith(reason, offCpu.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Sql_server_off_cpu_on_linux_is_skipped_and_names_what_windows_would_record()
    {
        var choices = OsSelection.Select(OsSelection.Values(offCpu: "on"), "sqlservr", serverIsLocal: true, processPerSession: false, Linux);

        Assert.Equal(["os", "offcpu", "perf"], choices.Select(c => c.Name));
        Assert.Equal(CollectorStatus.Skipped, choices[1].Status);
        Assert.Equal("off-CPU stacks: not run (off-CPU stacks of sqlservr need Windows: there they come from ETW kernel keywords Profile, ImageLoad, Process, Thread, ContextSwitch, Dispatcher (stacks on Profile, ContextSwitch))", choices[1].Description);
    }
}
