using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;

namespace SqlWaitProbe.Windows.OffCpu;

/// <summary>
/// The manifest's <c>offcpu</c> collector on Windows. The context switches ride on the ETW collector's kernel session
/// (one session records CPU samples and CSwitch/ReadyThread together), so this one starts nothing: it reports the
/// outcome the ETW collector sets once it has converted the trace.
/// </summary>
public sealed class EtwOffCpuCollector : ICollector
{
    private readonly EtwOffCpuOutcome _outcome;

    /// <summary>Reports <paramref name="outcome"/>, which the ETW collector of the same phase sets.</summary>
    public EtwOffCpuCollector(EtwOffCpuOutcome outcome)
    {
        _outcome = outcome ?? throw new ArgumentNullException(nameof(outcome));
    }

    /// <inheritdoc />
    public string Name => EtwOffCpuFiles.CollectorName;

    /// <inheritdoc />
    public Task StartAsync(PhaseContext phase, CancellationToken cancellationToken) => Task.CompletedTask;

    /// <inheritdoc />
    public async Task<CollectorOutcome> StopAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        try
        {
            return await _outcome.Task.WaitAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            return new CollectorOutcome(Name, CollectorStatus.Failed, 0, "the ETW trace was still being read when the phase's stop budget ran out, so whether the off-CPU files were written is not known");
        }
    }
}
