namespace SqlWaitProbe.Core.Bundle;

/// <summary>What fired a <c>probe watch</c> dump: the trigger as given, its threshold, the value it measured and when.</summary>
public sealed record BundleTrigger
{
    /// <summary>The trigger as given (<c>wait:Lock&gt;30%</c>), or <c>manual</c> for <c>probe watch --dump</c>.</summary>
    public string Trigger { get; init; } = "";

    /// <summary><c>wait</c>, <c>runqueue</c>, <c>cpu</c>, <c>blocked</c>, <c>latency</c> or <c>manual</c>.</summary>
    public string Kind { get; init; } = "";

    /// <summary>The value above which it fires, in <see cref="Unit"/>.</summary>
    public double Threshold { get; init; }

    /// <summary>The value it measured when it fired, in <see cref="Unit"/>.</summary>
    public double Value { get; init; }

    /// <summary><c>%</c>, <c>s</c> or <c>ms</c>; empty for a manual dump.</summary>
    public string Unit { get; init; } = "";

    /// <summary>When it fired (UTC).</summary>
    public DateTime FiredUtc { get; init; }

    /// <summary>How much of the time before the trigger the watch kept, in seconds (<c>--keep</c>).</summary>
    public double KeepSeconds { get; init; }

    /// <summary>How long the watch went on capturing after the trigger, in seconds (<c>--after</c>).</summary>
    public double AfterSeconds { get; init; }
}
