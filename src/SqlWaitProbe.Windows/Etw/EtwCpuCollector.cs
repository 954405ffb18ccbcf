using System.Runtime.Versioning;
using Microsoft.Diagnostics.Tracing.Session;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Windows.OffCpu;
using SqlWaitProbe.Windows.Symbols;

namespace SqlWaitProbe.Windows.Etw;

/// <summary>
/// Records kernel CPU sample stacks with ETW for one phase, keeps the trace as <c>cpu/trace.etl</c> and writes the same
/// normalised stack files as the perf path from it with the managed .etl reader (<see cref="EtlPhaseConversion"/>):
/// TraceEvent starts and stops the session, merges the images' PDB identities into the trace and looks up symbols.
/// Module-level files are written before any symbol is loaded.
/// </summary>
[SupportedOSPlatform("windows")]
public sealed class EtwCpuCollector : ICollector
{
    private readonly EtwCpuSettings _settings;
    private readonly IProgress<string> _progress;
    private TraceEventSession? _session;
    private string? _etlPath;
    private RunFolder? _run;
    private string? _resource;
    private DateTime _startUtc;

    /// <summary>Creates the collector; <paramref name="progress"/> receives symbol-loading and conversion messages.</summary>
    public EtwCpuCollector(EtwCpuSettings settings, IProgress<string>? progress = null)
    {
        _settings = settings ?? throw new ArgumentNullException(nameof(settings));
        _progress = progress ?? new Progress<string>(_ => { });
    }

    /// <inheritdoc />
    public string Name => "etw";

    /// <inheritdoc />
    public async Task StartAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(phase);
        EtwElevation.EnsureElevated();
        var sessionName = EtwSessionNames.For(_settings.RunId, Environment.OSVersion.Version);
        // Sessions of other runs are never stopped here: 'probe cleanup' stops those a dead run of this user recorded.
        _resource = "etw-" + phase.Name;
        _run = (_settings.Scope ?? new RunScope("capture", _settings.RunId)).Record(_ => new RunResource { Name = _resource, Description = $"ETW session {sessionName} of phase {phase.Name}", TraceSession = sessionName });
        var folder = _settings.WorkFolder ?? _run.Path;
        Directory.CreateDirectory(folder);
        _etlPath = Path.Combine(folder, $"{EtwSessionNames.Prefix}{_settings.RunId}-{phase.Name}.etl");
        File.Delete(_etlPath);

        var session = EtwKernelSession.Create(sessionName, _etlPath, _settings);
        try
        {
            // The interval is machine-wide and must be set before the kernel provider is enabled.
            session.CpuSampleIntervalMSec = (float)_settings.IntervalMSec;
            session.EnableKernelProvider(EtwKernelKeywords.Enabled(_settings.OffCpu), stackCapture: EtwKernelKeywords.WithStacks(_settings.OffCpu));
        }
        catch (Exception e)
        {
            session.Dispose();
            _settings.OffCpuOutcome?.Set(new CollectorOutcome(EtwOffCpuFiles.CollectorName, CollectorStatus.Failed, 0, $"the ETW session did not start: {e.Message}"));
            throw;
        }

        _session = session;
        _startUtc = DateTime.UtcNow;
    }

    /// <inheritdoc />
    public async Task<CollectorOutcome> StopAsync(PhaseContext phase, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(phase);
        if (_session is null || _etlPath is null)
        {
            _settings.OffCpuOutcome?.Set(new CollectorOutcome(EtwOffCpuFiles.CollectorName, CollectorStatus.Skipped, 0, "the ETW session was not started"));
            return new CollectorOutcome(Name, CollectorStatus.Skipped, Error: "the ETW session was not started");
        }

        long lost = 0;
        string? stopError = null;
        using (var session = _session)
        {
            _session = null;
            try
            {
                session.Flush();
                lost = session.EventsLost;
                session.Stop();
            }
            catch (Exception e) when (e is not OperationCanceledException)
            {
                // Someone stopped the session under us (probe cleanup, another tool); what reached the file is still read.
                stopError = e.Message;
            }
        }

        var endUtc = DateTime.UtcNow;
        try
        {
            if (!File.Exists(_etlPath))
            {
                return new CollectorOutcome(Name, CollectorStatus.Failed, lost, stopError ?? "the ETW session wrote no trace file");
            }

            // Ctrl+C still keeps what was recorded; it only skips the symbol downloads.
            var outcome = await Task.Run(() => Convert(phase, lost, endUtc, cancellationToken), CancellationToken.None).ConfigureAwait(false);
            return stopError is null || outcome.Status == CollectorStatus.Failed
                ? outcome
                : outcome with { Status = CollectorStatus.Partial, Error = $"the session stopped early: {stopError}" };
        }
        catch (Exception e)
        {
            return new CollectorOutcome(Name, CollectorStatus.Failed, lost, $"converting the ETW trace failed: {e.Message}");
        }
        finally
        {
            // Whatever happened above, the off-CPU collector gets an answer (the real one was set if there was one).
            _settings.OffCpuOutcome?.Set(new CollectorOutcome(EtwOffCpuFiles.CollectorName, CollectorStatus.Failed, lost, "the ETW trace could not be read, so the off-CPU files were not written"));
            DeleteQuietly(_etlPath);
            _run?.Forget(_resource!);
        }
    }

    private CollectorOutcome Convert(PhaseContext phase, long lost, DateTime endUtc, CancellationToken cancellationToken)
    {
        var etl = _etlPath!;
        try
        {
            // Adds the image identities (PDB signatures) so the trace resolves symbols on another machine.
            using var mergeLog = new TraceEventLog("ETW merge");
            TraceEventSession.MergeInPlace(etl, mergeLog);
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            _progress.Report($"the ETW trace was kept unmerged ({e.Message}); symbols resolve on this machine only");
        }

        // The trace stays in the bundle (PerfView and WPA open it; 'probe stacks' reads it on any OS), and the bundle's
        // stack files are read from that very file by the same reader 'probe stacks' uses.
        var kept = phase.PathFor(BundlePaths.EtwTrace(phase.Name));
        Core.Files.AtomicFile.Produce(kept, temp => File.Copy(etl, temp, overwrite: true));
        var settings = new EtlConversionSettings
        {
            ServerProcess = _settings.ServerProcess, ServerPid = _settings.ServerPid, Workload = _settings.Workload, OffCpu = _settings.OffCpu,
            IntervalMSec = _settings.IntervalMSec, OffCpuOutcome = _settings.OffCpuOutcome,
        };
        using var symbols = _settings.Symbols is { } options ? new PdbSymbolLookup(options, _progress) : null;
        var result = EtlPhaseConversion.Write(phase, kept, settings, symbols is null ? null : symbols.Lookup,
            "not resolved: no symbol path was given", lost, _startUtc, endUtc, _progress, cancellationToken);
        lost = result.Facts.LostSamples;

        if (result.Mapping.SampleCount == 0)
        {
            return new CollectorOutcome(Name, CollectorStatus.Failed, lost, "the trace holds no CPU samples");
        }

        return lost > 0
            ? new CollectorOutcome(Name, CollectorStatus.Partial, lost, $"the session lost {lost} events")
            : new CollectorOutcome(Name, CollectorStatus.Ok);
    }

    private static void DeleteQuietly(string? path)
    {
        try
        {
            if (path is not null)
            {
                File.Delete(path);
            }
        }
        catch (IOException)
        {
        }
        catch (UnauthorizedAccessException)
        {
        }
    }
}
