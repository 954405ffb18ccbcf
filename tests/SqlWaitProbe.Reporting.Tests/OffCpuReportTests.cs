using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Modules;

namespace SqlWaitProbe.Reporting.Tests;

public sealed class OffCpuReportTests
{
    [Fact]
    public async Task A_phase_with_off_cpu_stacks_gets_a_folded_file_a_flame_graph_and_a_blocked_time_table()
    {
        const string stack = "postgres;postgres!CopyFrom;libc.so.6!read;[kernel.kallsyms]!ksys_read_[k];[kernel.kallsyms]!anon_pipe_read_[k];[kernel.kallsyms]!schedule_[k]";
        var b = new CraftedBundle("postgres", "postgres").Phase("load", 1, 4, 250).OffCpuStack("load", 0, stack)
            .SessionReading("load", 1, 0, 0, 0).SessionReading("load", 1, 1000, 200, 0);
        for (var i = 0; i < 4; i++)
        {
            b.OffCpuInterval("load", i * 250 + 50, i * 250 + 250, 1, 'S', 0);
        }

        var root = b.Write();
        using var bundle = CaptureBundle.Open(root);
        var output = Path.Combine(root, "report");

        await ReportBuilder.BuildAsync(bundle, output, Registered.Analysis, new Progress<string>(), CancellationToken.None);

        Assert.Equal(stack + " 800000\n", File.ReadAllText(Path.Combine(output, "offcpu-load.folded")));
        var svg = File.ReadAllText(Path.Combine(output, "flamegraph-offcpu-load.svg"));
        Assert.Contains("anon_pipe_read", svg);
        Assert.Contains("off-CPU", svg);
        var md = File.ReadAllText(Path.Combine(output, "report.md"));
        Assert.Contains("| waiting on a pipe (a child program's output): anon_pipe_read ← read ← … ← CopyFrom | 200 | 0 | 0 | 200 | 80% | 4 |", md);
        Assert.Contains("| ↳ blocked in the kernel — waiting on a pipe (a child program's output): anon_pipe_read ← read ← … ← CopyFrom | 0.8 | 80% |", md);
        Assert.Contains("flamegraph-offcpu-load.svg", File.ReadAllText(Path.Combine(output, "report.html")));
    }
}
