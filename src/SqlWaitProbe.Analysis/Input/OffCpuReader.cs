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
        using var stacksCsv = CsvFile.Open(bundle, stacksPath, "stack_id", "stack");
        using var intervalsCsv = CsvFile.Open(bundle, intervalsPath, "start_ms", "end_ms", "session", "state", "stack_id");
        if (stacksCsv is null || intervalsCsv is null)
        {
            return null;
        }

        var stacks = new List<string>();
        while (stacksCsv.Read())
        {
            var id = (int)stacksCsv.Number("stack_id");
            if (id != stacks.Count)
            {
                throw new BadInputException($"stack_id {id} is out of order (expected {stacks.Count})", stacksPath, stacksCsv.LineNumber);
            }

            stacks.Add(stacksCsv.Text("stack"));
        }

        var rows = new List<OffCpuRow>();
        while (intervalsCsv.Read())
        {
            var start = intervalsCsv.Number("start_ms");
            var end = intervalsCsv.Number("end_ms");
            var stack = (int)intervalsCsv.Number("stack_id");
            if (end < start)
            {
                throw new BadInputException($"end_ms {end} is before start_ms {start}", intervalsPath, intervalsCsv.LineNumber);
            }

            if (stack < 0 || stack >= stacks.Count)
            {
                throw new BadInputException($"stack_id {stack} is not in {stacksPath}", intervalsPath, intervalsCsv.LineNumber);
            }

            var state = intervalsCsv.Text("state");
            rows.Add(new OffCpuRow(start, end, (int)intervalsCsv.Number("session"), state.Length == 0 ? 'S' : state[0], stack));
        }

        var source = bundle.Has(BundlePaths.OffCpuScript(phase)) ? "perf sched_switch" : "ETW CSwitch";
        return new OffCpuData(stacks, rows, source);
    }
}
