using Microsoft.Diagnostics.Tracing.Parsers;
using SqlWaitProbe.Windows.Etw;

namespace SqlWaitProbe.Windows.Tests;

/// <summary>The kernel keywords the ETW session enables with off-CPU stacks off and on.</summary>
public sealed class EtwKernelKeywordsTests
{
    private const KernelTraceEventParser.Keywords Cpu = KernelTraceEventParser.Keywords.Profile | KernelTraceEventParser.Keywords.ImageLoad
        | KernelTraceEventParser.Keywords.Process | KernelTraceEventParser.Keywords.Thread;

    [Fact]
    public void Without_off_cpu_the_session_records_cpu_samples_only()
    {
        Assert.Equal(Cpu, EtwKernelKeywords.Enabled(offCpu: false));
        Assert.Equal(KernelTraceEventParser.Keywords.Profile, EtwKernelKeywords.WithStacks(offCpu: false));
        Assert.Equal("kernel keywords Profile, ImageLoad, Process, Thread (stacks on Profile)", EtwKernelKeywords.Describe(offCpu: false));
    }

    [Fact]
    public void With_off_cpu_the_session_adds_context_switches_with_stacks_and_ready_thread_events()
    {
        var enabled = EtwKernelKeywords.Enabled(offCpu: true);
        var stacks = EtwKernelKeywords.WithStacks(offCpu: true);

        Assert.Equal(Cpu | KernelTraceEventParser.Keywords.ContextSwitch | KernelTraceEventParser.Keywords.Dispatcher, enabled);
        Assert.Equal(KernelTraceEventParser.Keywords.Profile | KernelTraceEventParser.Keywords.ContextSwitch, stacks);
        // Stacks are asked only for what is enabled; the waker's ReadyThread stack is not needed.
        Assert.Equal(stacks, stacks & enabled);
        Assert.Equal("kernel keywords Profile, ImageLoad, Process, Thread, ContextSwitch, Dispatcher (stacks on Profile, ContextSwitch)", EtwKernelKeywords.Describe(offCpu: true));
    }
}
