using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Analysis.Input;

/// <summary>Reads offcpu/stacks.csv and offcpu/intervals.csv of a phase.</summary>
public static class OffCpuReader
{
    /// <summary>The phase's off-CPU data, or null when it was not captured.</summary>
    public static OffCpuData? Read(CaptureBundle bundle, string phase)
    {
        var stacksPath = BundlePaths.OffCpuStacks(phase);
        var intervalsPath = BundlePaths.OffCpuIntervals(phase);
        using var stacksCsv = CsvFile.Open(bundle, stacksPath, BundleColumns.OffCpuStacks.StackId, BundleColumns.OffCpuStacks.Stack);
        using var intervalsCsv = CsvFile.Open(bundle, intervalsPath, BundleColumns.OffCpuIntervals.StartMs, BundleColumns.OffCpuIntervals.EndMs, BundleColumns.OffCpuIntervals.Session, BundleColumns.OffCpuIntervals.State, BundleColumns.OffCpuIntervals.StackId);
        if (stacksCsv is null || intervalsCsv is null)
        {
            return null;
        }

        var stacks = new List<string>();
        while (stacksCsv.Read())
        {
            var id = (int)stacksCsv.Number(BundleColumns.OffCpuStacks.StackId);
            if (id != stacks.Count)
            {
                throw new BadInputException($"stack_id {id} is out of order (expected {stacks.Count})", stacksPath, stacksCsv.LineNumber);
            }

            stacks.Add(stacksCsv.Text(BundleColumns.OffCpuStacks.Stack));
        }

        var rows = new List<OffCpuRow>();
        while (intervalsCsv.Read())
        {
            var start = intervalsCsv.Number(BundleColumns.OffCpuIntervals.StartMs);
            var end = intervalsCsv.Number(BundleColumns.OffCpuIntervals.EndMs);
            var stack = (int)intervalsCsv.Number(BundleColumns.OffCpuIntervals.StackId);
            if (end < start)
            {
                throw new BadInputException($"end_ms {end} is before start_ms {start}", intervalsPath, intervalsCsv.LineNumber);
            }

            if (stack < 0 || stack >= stacks.Count)
            {
                throw new BadInputException($"stack_id {stack} is not in {stacksPath}", intervalsPath, intervalsCsv.LineNumber);
            }

            var state = intervalsCsv.Text(BundleColumns.OffCpuIntervals.State);
            rows.Add(new OffCpuRow(start, end, (int)intervalsCsv.Number(BundleColumns.OffCpuIntervals.Session), state.Length == 0 ? 'S' : state[0], stack));
        }

        var source = bundle.Has(BundlePaths.OffCpuScript(phase)) ? "perf sched_switch" : "ETW CSwitch";
        return new OffCpuData(stacks, rows, source);
    }
}
