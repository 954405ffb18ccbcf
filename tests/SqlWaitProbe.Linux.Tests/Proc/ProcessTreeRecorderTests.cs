using System.Diagnostics;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Linux.Proc;

namespace SqlWaitProbe.Linux.Tests.Proc;

public sealed class ProcessTreeRecorderTests
{
    [Fact]
    public void Stat_fields_are_read_after_the_last_parenthesis()
    {
        var (name, parent, start) = ProcessTreeRecorder.ParseStat("4242 (post) gres (x)) S 4200 4242 4242 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 987654 1000 10");

        Assert.Equal("post) gres (x)", name);
        Assert.Equal(4200, parent);
        Assert.Equal(987654, start);
    }

    [Fact]
    public async Task The_tree_holds_the_root_and_every_descendant_seen_and_nothing_else()
    {
        // A parent with one child at once and a second child half a second later, and a stranger beside them.
        using var root = Start("sh", "-c", "sleep 30 & sleep 0.5; sleep 30 & wait");
        using var stranger = Start("sleep", "30");
        try
        {
            await using var recorder = new ProcessTreeRecorder(root.Id, []);
            recorder.Start();

            // The second `sleep 30` is waited for, not assumed after a fixed time: a loaded machine starts it late. The
            // recorder's last look at its stop sees it either way; the test is that it is in the tree.
            var waited = Stopwatch.StartNew();
            while (Children(root.Id).Count(IsLongSleep) < 2 && waited.Elapsed < TimeSpan.FromSeconds(60))
            {
                await Task.Delay(50);
            }

            var recorded = await recorder.StopAsync();

            var children = Children(root.Id);
            Assert.True(children.Count >= 2, $"the shell has {children.Count} children");
            Assert.Contains(recorded, p => p.Pid == root.Id && p.ParentPid == Environment.ProcessId);
            foreach (var child in children)
            {
                var identity = ProcessIdentity.Read(child)!;
                Assert.Contains(recorded, p => p.Pid == child && p.ParentPid == root.Id && p.StartTicks == identity.StartTicks && p.RunningAtEnd && p.Name == "sleep");
            }

            Assert.DoesNotContain(recorded, p => p.Pid == stranger.Id);
            Assert.DoesNotContain(recorded, p => p.Pid == Environment.ProcessId);
            Assert.True(recorder.WindowStartSeconds < recorder.WindowEndSeconds);
            Assert.All(recorded, p => Assert.InRange(p.StartSeconds, 0, recorder.WindowEndSeconds));
        }
        finally
        {
            Stop(root);
            Stop(stranger);
        }
    }

    [Fact]
    public async Task A_fixed_list_records_those_processes_and_when_one_ended()
    {
        using var lasting = Start("sleep", "30");
        using var brief = Start("sleep", "30");
        try
        {
            await using var recorder = new ProcessTreeRecorder(null, [lasting.Id, brief.Id]);

            // Start reads both at once; the brief one is ended after that (a process that ends on its own may end before
            // a loaded machine gets there), its end waited for, then a gap the window must show.
            recorder.Start();
            brief.Kill();
            await brief.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(60));
            await Task.Delay(700);
            var recorded = await recorder.StopAsync();

            Assert.Equal(new[] { lasting.Id, brief.Id }.Order(), recorded.Select(p => p.Pid).Order());
            Assert.True(recorded.Single(p => p.Pid == lasting.Id).RunningAtEnd);
            var ended = recorded.Single(p => p.Pid == brief.Id);
            Assert.False(ended.RunningAtEnd);
            Assert.True(ended.LastSeenSeconds < recorder.WindowEndSeconds - 0.5, $"last seen {ended.LastSeenSeconds}, window end {recorder.WindowEndSeconds}");
        }
        finally
        {
            Stop(lasting);
            Stop(brief);
        }
    }

    private static Process Start(string file, params string[] arguments)
    {
        var info = new ProcessStartInfo(file) { UseShellExecute = false };
        foreach (var a in arguments)
        {
            info.ArgumentList.Add(a);
        }

        return Process.Start(info)!;
    }

    private static bool IsLongSleep(int pid)
    {
        try
        {
            return File.ReadAllText($"/proc/{pid}/cmdline") == "sleep\u000030\u0000";
        }
        catch (IOException)
        {
            return false;
        }
    }

    private static List<int> Children(int parent) =>
        Directory.EnumerateDirectories("/proc")
            .Select(d => int.TryParse(Path.GetFileName(d), out var pid) ? pid : 0)
            .Where(pid => pid > 0)
            .Where(pid =>
            {
                try
                {
                    return ProcessTreeRecorder.ParseStat(File.ReadAllText($"/proc/{pid}/stat")).ParentPid == parent;
                }
                catch (IOException)
                {
                    return false;
                }
            })
            .ToList();

    private static void Stop(Process process)
    {
        try
        {
            process.Kill(entireProcessTree: true);
            process.WaitForExit(5000);
        }
        catch (InvalidOperationException)
        {
        }
    }
}
