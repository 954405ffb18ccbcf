using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Watch;

namespace SqlWaitProbe.Core.Tests.Watch;

public sealed class TriggerSpecTests
{
    [Theory]
    [InlineData("wait:Lock>30%", TriggerKind.Wait, "Lock", 30, "%")]
    [InlineData("WAIT:lwlock:BufferContent > 12.5 %", TriggerKind.Wait, "lwlock:BufferContent", 12.5, "%")]
    [InlineData("wait:LCK_M_>30%", TriggerKind.Wait, "LCK_M_", 30, "%")]
    [InlineData("runqueue>20%", TriggerKind.RunQueue, null, 20, "%")]
    [InlineData("cpu>90%", TriggerKind.Cpu, null, 90, "%")]
    [InlineData("blocked>5", TriggerKind.Blocked, null, 5, "s")]
    [InlineData("blocked>500ms", TriggerKind.Blocked, null, 0.5, "s")]
    [InlineData("blocked>2m", TriggerKind.Blocked, null, 120, "s")]
    [InlineData("latency>250", TriggerKind.Latency, null, 250, "ms")]
    [InlineData("latency>2s", TriggerKind.Latency, null, 2000, "ms")]
    public void Parses_every_form_into_its_kind_threshold_and_unit(string text, TriggerKind kind, string? name, double threshold, string unit)
    {
        var t = TriggerSpec.Parse(text);
        Assert.Equal((kind, name, unit), (t.Kind, t.WaitName, t.Unit));
        Assert.Equal(threshold, t.Threshold, 9);
    }

    [Theory]
    [InlineData("", "is not a trigger")]
    [InlineData("wait:Lock", "is not a trigger")]
    [InlineData("wait:Lock>30", "a share is a percentage")]
    [InlineData("wait:>30%", "the wait name must be")]
    [InlineData("wait:a:b:c>30%", "the wait name must be")]
    [InlineData("cpu>0%", "above 0 and below 100")]
    [InlineData("cpu>100%", "above 0 and below 100")]
    [InlineData("latency>3%", "takes a time")]
    [InlineData("disk>3s", "is not something a watch measures")]
    [InlineData("latency<3s", "is not a trigger")]
    public void Refuses_with_one_line_naming_the_trigger(string text, string message)
    {
        var e = Assert.Throws<BadInputException>(() => TriggerSpec.Parse(text));
        Assert.Contains(message, e.OneLine);
        Assert.Contains($"'{text}'", e.OneLine);
        Assert.DoesNotContain('\n', e.OneLine);
    }

    [Theory]
    [InlineData("Lock", "Lock:transactionid", true)]
    [InlineData("lock", "Lock:tuple", true)]
    [InlineData("Lock", "LWLock:BufferContent", false)]
    [InlineData("LWLock:Buffer", "LWLock:BufferContent", true)]
    [InlineData("BufferContent", "LWLock:BufferContent", true)]
    [InlineData("transactionid", "Lock:transactionid", true)]
    [InlineData("IO:DataFileRead", "IO:DataFileWrite", false)]
    [InlineData("LCK_M_", "LCK_M_X", true)]
    [InlineData("lck_m_", "LCK_M_S", true)]
    [InlineData("LCK_M_", "PAGELATCH_EX", false)]
    public void A_wait_name_matches_class_event_or_whole_name_by_prefix_in_any_case(string name, string type, bool matches) =>
        Assert.Equal(matches, TriggerSpec.Parse($"wait:{name}>10%").MatchesWait(type));
}
