using SqlWaitProbe.Analysis.Comparison;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Modules;

namespace SqlWaitProbe.Analysis.Tests;

/// <summary>Labels and configuration rows of <c>probe compare</c> say what differs, and never call a recorded setting "not set".</summary>
public sealed class CompareLabelsTests
{
    private static readonly Func<string, bool> IsInstance = Registered.Analysis.InstanceSettingsFor("postgres").Contains;

    /// <summary>The demo (no options given but the defaults it runs with) and a 4-session capture that named its engine and CPU collector.</summary>
    private static BundleManifest Capture(int loadThreads, Dictionary<string, string> options) => new()
    {
        Engine = "postgres",
        Workload = "hashbytes",
        LogicalCpus = 2,
        Options = options,
        Phases = [new BundlePhase { Name = "baseline", Threads = 1 }, new BundlePhase { Name = "load", Threads = loadThreads }],
        Collectors = [new BundleCollector { Name = "perf", Status = CollectorStatus.Ok }, new BundleCollector { Name = "pg-waits", Status = CollectorStatus.Ok }],
    };

    [Fact]
    public void Captures_that_differ_in_sessions_are_labelled_by_them_and_options_given_in_one_only_are_compared_by_what_ran()
    {
        var demo = Capture(2, new Dictionary<string, string>());
        var four = Capture(4, new Dictionary<string, string> { ["--engine"] = "postgres", ["--cpu"] = "perf", ["--threads"] = "4", ["--duration"] = "20s" });

        var rows = CaptureConfiguration.Differences([demo, four], IsInstance);
        var labels = CaptureConfiguration.Labels([demo, four], ["demo", "four"], IsInstance);

        Assert.Equal(["2 sessions", "4 sessions"], labels);
        // Both ran postgres with perf: not a difference, whatever was typed.
        Assert.DoesNotContain(rows, r => r.Setting is "--engine" or "--cpu" or "engine" or "CPU stacks");
        var sessions = Assert.Single(rows, r => r.Setting == "sessions per phase");
        Assert.Equal(["baseline 1, load 2", "baseline 1, load 4"], sessions.Values);
        // An option one capture was not given ran at its default; it is never "not set" or "not recorded".
        var duration = Assert.Single(rows, r => r.Setting == "--duration");
        Assert.Equal(["default", "20s"], duration.Values);
        Assert.All(rows.Where(r => r.Source == "manifest.json options"), r => Assert.All(r.Values, v => Assert.NotNull(v)));
    }

    [Fact]
    public void Captures_of_different_workloads_are_labelled_by_the_workload()
    {
        var md5 = Capture(2, []) with { Workload = "md5" };
        var sha = Capture(2, []) with { Workload = "sha512" };

        Assert.Equal(["md5", "sha512"], CaptureConfiguration.Labels([md5, sha], ["a", "b"], IsInstance));
    }

    [Fact]
    public void Settings_that_name_the_instance_are_no_difference_and_an_engines_setting_is_labelled_without_its_prefix()
    {
        // Two embedded servers: their data folders and ports always differ, which the PostgreSQL module says of them.
        var small = Capture(2, []) with { Configuration = new Dictionary<string, string> { ["postgres.port"] = "5433", ["postgres.data_directory"] = "/a", ["postgres.work_mem"] = "64kB" } };
        var large = Capture(2, []) with { Configuration = new Dictionary<string, string> { ["postgres.port"] = "5434", ["postgres.data_directory"] = "/b", ["postgres.work_mem"] = "256MB" } };

        var row = Assert.Single(CaptureConfiguration.Differences([small, large], IsInstance));
        Assert.Equal("postgres.work_mem", row.Setting);
        Assert.Equal(["work_mem=64kB", "work_mem=256MB"], CaptureConfiguration.Labels([small, large], ["a", "b"], IsInstance));
    }
}
