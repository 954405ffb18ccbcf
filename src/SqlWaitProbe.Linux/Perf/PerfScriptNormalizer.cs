namespace SqlWaitProbe.Linux.Perf;

/// <summary>Turns a phase's raw <c>perf script</c> output into the bundle's normalised stack files.</summary>
public static class PerfScriptNormalizer
{
    /// <summary>
    /// Reads <c>phases/&lt;phase&gt;/cpu/perf.script.gz</c> of the bundle at <paramref name="bundleRoot"/> and writes
    /// <c>cpu/stacks.folded</c>, <c>cpu/timeline.csv</c> and <c>cpu/sampling.json</c> beside it.
    /// Returns the number of samples read.
    /// </summary>
    public static long Normalize(string bundleRoot, string phase, int sampleHz, int logicalCpus, double durationSeconds) =>
        throw new NotSupportedException("pending: the perf reader lands with the stack-pipeline work");
}
