using Microsoft.Diagnostics.Tracing.Parsers;

namespace SqlWaitProbe.Windows.Etw;

/// <summary>
/// The kernel keywords the ETW session enables, and those it walks stacks for. CPU samples always; with off-CPU
/// stacks also context switches (CSwitch) and the dispatcher (ReadyThread), PerfView's Thread Time events. Stacks are
/// walked on CSwitch only: its stack is the switched-in thread's, which is where that thread had blocked, and that is
/// all the off-CPU mapping reads; a ReadyThread stack (the waker's) would double the stack walks for nothing it uses.
/// </summary>
public static class EtwKernelKeywords
{
    private static readonly KernelTraceEventParser.Keywords[] CpuKeywords =
    [
        KernelTraceEventParser.Keywords.Profile, KernelTraceEventParser.Keywords.ImageLoad,
        KernelTraceEventParser.Keywords.Process, KernelTraceEventParser.Keywords.Thread,
    ];

    private static readonly KernelTraceEventParser.Keywords[] OffCpuKeywords =
    [
        KernelTraceEventParser.Keywords.ContextSwitch, KernelTraceEventParser.Keywords.Dispatcher,
    ];

    /// <summary>The keywords to enable: CPU samples with image, process and thread events, plus CSwitch and ReadyThread when <paramref name="offCpu"/>.</summary>
    public static KernelTraceEventParser.Keywords Enabled(bool offCpu) => Combine(offCpu ? [.. CpuKeywords, .. OffCpuKeywords] : CpuKeywords);

    /// <summary>The keywords whose events carry call stacks: samples, plus context switches when <paramref name="offCpu"/>.</summary>
    public static KernelTraceEventParser.Keywords WithStacks(bool offCpu) => offCpu
        ? KernelTraceEventParser.Keywords.Profile | KernelTraceEventParser.Keywords.ContextSwitch
        : KernelTraceEventParser.Keywords.Profile;

    /// <summary>One line for the dry run: the keywords by name and those with stacks, e.g. <c>Profile, ImageLoad, … (stacks on Profile)</c>.</summary>
    public static string Describe(bool offCpu)
    {
        var enabled = offCpu ? [.. CpuKeywords, .. OffCpuKeywords] : CpuKeywords;
        var stacks = enabled.Where(k => (WithStacks(offCpu) & k) != 0);
        return $"kernel keywords {string.Join(", ", enabled.Select(Name))} (stacks on {string.Join(", ", stacks.Select(Name))})";
    }

    // Single flags have their own names; a combined value's ToString could pick an alias such as ThreadTime.
    private static string Name(KernelTraceEventParser.Keywords keyword) => keyword.ToString();

    private static KernelTraceEventParser.Keywords Combine(IEnumerable<KernelTraceEventParser.Keywords> keywords) =>
        keywords.Aggregate(KernelTraceEventParser.Keywords.None, (all, k) => all | k);
}
