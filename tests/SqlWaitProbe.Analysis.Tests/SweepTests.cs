using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Analysis.Tests;

public sealed class SweepTests
{
    [Fact]
    public void Sweep_levels_give_a_scalability_table_and_the_fastest_growing_module_with_its_call_paths()
    {
        var b = new CraftedBundle();
        foreach (var (threads, ms, kernel) in new[] { (1, 10.0, 10), (2, 12.0, 30), (4, 20.0, 60) })
        {
            var name = threads == 1 ? "baseline" : threads.ToString(System.Globalization.CultureInfo.InvariantCulture);
            b.Phase(name, threads, 100, ms).Sessions(name, threads * 100 * ms * 0.9)
             .Wait(name, "SOS_SCHEDULER_YIELD", threads * 10).Spinlock(name, "SOS_CACHESTORE", threads * 1000)
             .Stack(name, "sqlservr;sqllang!CXStmtQuery::Execute;sqllang!HashBytes;sqldk!SOS_MemoryWorkSpace::Alloc", 100 - kernel)
             .Stack(name, "sqlservr;sqllang!CXStmtQuery::Execute;sqllang!HashBytes;sqldk!SOS_MemoryWorkSpace::Alloc;ntoskrnl!MiZeroPage_[k];ntoskrnl!KeZeroPages_[k]", kernel);
        }

        var a = Analyze.Crafted(b);

        Assert.Equal([1, 2, 4], a.Scalability.Select(s => s.Threads));
        var top = a.Scalability[^1];
        Assert.Equal(200, top.ExecutionsPerSecond, 9);
        Assert.Equal(400, top.IdealExecutionsPerSecond, 9);
        Assert.Equal(0.5, top.VsIdeal, 9);
        Assert.Equal(("ntoskrnl", "SOS_SCHEDULER_YIELD", "SOS_CACHESTORE"), (top.TopModule, top.TopWait, top.TopSpinlock));
        Assert.Equal("ntoskrnl", a.FastestGrowing!.Module);
        Assert.Equal(["2", "4"], a.GrowthByPhase.Select(g => g.Phase));
        var kernelAt4 = a.GrowthByPhase[1].Rows.Single(r => r.Module == "ntoskrnl");
        Assert.Equal(0.9, kernelAt4.BaselineMsPerExecution, 9);
        Assert.Equal(10.8, kernelAt4.LoadMsPerExecution, 9);
        var path = Assert.Single(a.CallPathsIntoFastest);
        Assert.Equal(["sqllang!CXStmtQuery::Execute", "sqllang!HashBytes", "sqldk!SOS_MemoryWorkSpace::Alloc", "ntoskrnl!MiZeroPage"], path.Frames);
        Assert.Equal(0.6, path.Share, 9);
    }
}
