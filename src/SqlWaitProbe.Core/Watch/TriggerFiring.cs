namespace SqlWaitProbe.Core.Watch;

/// <summary>A trigger that fired: which one, the value it measured (in its unit) and when (UTC).</summary>
public sealed record TriggerFiring(TriggerSpec Trigger, double Value, DateTime Utc)
{
    /// <summary>One line for the log and the console, e.g. <c>wait:Lock&gt;30% fired: 84.2% at 2026-11-25T12:00:01Z (UTC)</c>.</summary>
    public string Describe() => Trigger.Kind == TriggerKind.Manual
        ? $"a dump was asked for from another shell at {Utc:yyyy-MM-ddTHH:mm:ss}Z (UTC)"
        : $"{Trigger.Text} fired: {Trigger.Describe(Value)} at {Utc:yyyy-MM-ddTHH:mm:ss}Z (UTC)";
}
