using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>Two captures on one machine at once: perf samples every process, yet each bundle's workload is its own server.</summary>
public sealed class SimultaneousCaptureTests
{
    [Fact]
    public async Task Two_simultaneous_captures_each_count_only_their_own_servers_processes_as_the_workload()
    {
        // Two embedded servers: one hashes through pgcrypto (pgcrypto.so frames only it can have), one runs SELECT 1.
        // The second runs longer, so its window covers the first's load phase.
        var hashDir = Path.Combine(TestData.TempFolder(), "hash");
        var noopDir = Path.Combine(TestData.TempFolder(), "noop");
        using var hash = ProbeProcess.Start("capture", "--workload", "hashbytes", "--threads", "2", "--duration", "8s", "--scale", "0.05",
            "--no-baseline", "--cpu", "perf", "--sample-hz", "199", "--no-analyze", "-o", hashDir);
        using var noop = ProbeProcess.Start("capture", "--workload", "noop", "--threads", "1", "--duration", "16s",
            "--no-baseline", "--cpu", "perf", "--sample-hz", "199", "-o", noopDir);
        var hashRun = await hash.WaitAsync(TimeSpan.FromMinutes(3));
        var noopRun = await noop.WaitAsync(TimeSpan.FromMinutes(3));
        Assert.True(hashRun.Exit == 0, hashRun.Err);
        Assert.True(noopRun.Exit == 0, noopRun.Err);

        var hashProcesses = Processes(hashDir);
        var noopProcesses = Processes(noopDir);

        // Each bundle records its own server's tree: every backend of its sessions, none of the other's processes.
        Assert.Superset(Backends(hashDir, 2), hashProcesses.Select(p => p.Pid).ToHashSet());
        Assert.Superset(Backends(noopDir, 1), noopProcesses.Select(p => p.Pid).ToHashSet());
        Assert.Empty(hashProcesses.Select(p => (p.Pid, p.StartTicks)).Intersect(noopProcesses.Select(p => (p.Pid, p.StartTicks))));
        Assert.DoesNotContain(hashProcesses, p => Backends(noopDir, 1).Contains(p.Pid));
        Assert.DoesNotContain(noopProcesses, p => Backends(hashDir, 2).Contains(p.Pid));

        // The hashing server's digest work is its workload; in the other bundle it is there, but only as other:postgres.
        var hashStacks = Stacks(hashDir);
        var noopStacks = Stacks(noopDir);
        Assert.True(Weight(hashStacks, "postgres", "pgcrypto.so") > 0, "the hashing capture's own backends ran pgcrypto");
        Assert.Equal(0, Weight(noopStacks, "postgres", "pgcrypto.so"));
        Assert.True(Weight(noopStacks, "other:postgres", "pgcrypto.so") > 0, "the other server's digest samples stay visible as other processes");

        // What the user reads: the report's modules and flame graph are the SELECT 1 server's; the all-process graph shows the other.
        var report = Path.Combine(noopDir, "report");
        Assert.DoesNotContain("pgcrypto", File.ReadAllText(Path.Combine(report, "flamegraph-load.svg")), StringComparison.Ordinal);
        Assert.Contains("other:postgres", File.ReadAllText(Path.Combine(report, "flamegraph-load-all-processes.svg")), StringComparison.Ordinal);
        var markdown = File.ReadAllText(Path.Combine(report, "report.md"));
        Assert.DoesNotContain("pgcrypto.so", markdown, StringComparison.Ordinal);
        Assert.Contains("listed in cpu/processes.csv", markdown, StringComparison.Ordinal);
        Assert.Contains("other postgres processes on the machine", markdown, StringComparison.Ordinal);
    }

    private static List<WorkloadProcess> Processes(string bundle)
    {
        var path = Path.Combine(bundle, BundlePaths.Processes("load"));
        Assert.True(File.Exists(path), "the bundle records the workload's processes");
        using var reader = new StreamReader(path);
        return Csv.ReadRows(reader).Select(r => new WorkloadProcess(
            int.Parse(r["pid"], System.Globalization.CultureInfo.InvariantCulture), int.Parse(r["ppid"], System.Globalization.CultureInfo.InvariantCulture), r["name"],
            long.Parse(r["start_ticks"], System.Globalization.CultureInfo.InvariantCulture), Csv.ParseDouble(r["start_s"]), Csv.ParseDouble(r["last_seen_s"]), r["running_at_end"] == "1")).ToList();
    }

    private static HashSet<int> Backends(string bundle, int sessions)
    {
        using var reader = new StreamReader(Path.Combine(bundle, BundlePaths.Sessions("load")));
        var pids = Csv.ReadRows(reader).Select(r => int.Parse(r["backend_pid"], System.Globalization.CultureInfo.InvariantCulture)).ToHashSet();
        Assert.Equal(sessions, pids.Count);
        return pids;
    }

    private static StackProfile Stacks(string bundle)
    {
        var profile = new StackProfile();
        using var reader = new StreamReader(Path.Combine(bundle, BundlePaths.Stacks("load")));
        FoldedStackFormat.ReadInto(reader, "stacks.folded", profile, firstFrameIsProcess: true);
        return profile;
    }

    private static long Weight(StackProfile profile, string process, string module) =>
        profile.Entries.Where(e => e.Process == process && profile.FramesOf(e.StackId).Any(f => f.Module == module)).Sum(e => e.Weight);
}
