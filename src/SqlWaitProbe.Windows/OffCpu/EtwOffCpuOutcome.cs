using SqlWaitProbe.Core.Collectors;

namespace SqlWaitProbe.Windows.OffCpu;

/// <summary>
/// The <c>offcpu</c> outcome of one phase, handed from the ETW collector (which records and converts the context
/// switches in its own session) to <see cref="EtwOffCpuCollector"/> (which reports it in the manifest).
/// </summary>
public sealed class EtwOffCpuOutcome
{
    private readonly TaskCompletionSource<CollectorOutcome> _outcome = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>Sets the outcome; later calls are ignored, so a fallback set in a finally block never overrides the real one.</summary>
    public void Set(CollectorOutcome outcome) => _outcome.TrySetResult(outcome);

    /// <summary>The outcome once the ETW collector has set it.</summary>
    public Task<CollectorOutcome> Task => _outcome.Task;
}
