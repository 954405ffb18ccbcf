using System.IO.Compression;
using System.Runtime.Versioning;
using Microsoft.Diagnostics.Symbols;
using Microsoft.Diagnostics.Tracing.Etlx;
using Microsoft.Diagnostics.Tracing.Parsers;
using Microsoft.Diagnostics.Tracing.Session;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Windows.OffCpu;
using SqlWaitProbe.Windows.Symbols;

namespace SqlWaitProbe.Windows.Etw;

/// <summary>
/// Records kernel CPU sample stacks with ETW for one phase, keeps the trace as <c>cpu/trace.etl.zip</c> and writes the
/// same normalised stack files as the perf path. Module-level files are written before any symbol is loaded.
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
        _run = RuntimeFolder.Run("capture", _settings.RunId);
        _resource = "etw-" + phase.Name;
        _run.Record(new RunResource { Name = _resource, Description = $"ETW session {sessionName} of phase {phase.Name}", TraceSession = sessionName });
        var folder = _settings.WorkFolder ?? _run.Path;
        Directory.CreateDirectory(folder);
        _etlPath = Path.Combine(folder, $"{EtwSessionNames.Prefix}{_settings.RunId}-{phase.Name}.etl");
        File.Delete(_etlPath);

        var session = new TraceEventSession(sessionName, _etlPath) { StopOnDispose = true, BufferSizeMB = 256 };
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
            DeleteQuietly(Path.ChangeExtension(_etlPath, ".etlx"));
            _run?.Forget(_resource!);
        }
    }

    private CollectorOutcome Convert(PhaseContext phase, long lost, DateTime endUtc, CancellationToken cancellationToken)
    {
        var etl = _etlPath!;
        try
        {
            // Adds the image identities (PDB signatures) so the trace resolves symbols on another machine.
            TraceEventSession.MergeInPlace(etl, TextWriter.Null);
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            _progress.Report($"the ETW trace was kept unmerged ({e.Message}); symbols resolve on this machine only");
        }

        ZipTrace(etl, phase.PathFor(BundlePaths.EtwTrace(phase.Name)));

        _progress.Report("converting the ETW trace");
        using var log = TraceLog.OpenOrConvert(etl, new TraceLogOptions { ConversionLog = TextWriter.Null, ContinueOnError = true });
        var source = new TraceLogStackSource(log);
        var phaseStart = phase.StartUtc == default ? _startUtc : phase.StartUtc;
        var phaseEnd = phase.EndUtc == default ? endUtc : phase.EndUtc;
        var mapping = EtwStackMapper.Map(source, phaseStart, EtwSymbolMode.ModulesOnly, workload: _settings.Workload);
        // Windows may round the requested interval; the trace records the one it used.
        var intervalMSec = log.SampleProfileInterval > TimeSpan.Zero ? log.SampleProfileInterval.TotalMilliseconds : _settings.IntervalMSec;
        lost = Math.Max(lost, log.EventsLost);
        var facts = new EtwSamplingFacts("etw", Math.Round(1000.0 / intervalMSec), mapping.SampleCount, lost,
            Math.Max(0, (phaseEnd - phaseStart).TotalSeconds), log.NumberOfProcessors > 0 ? log.NumberOfProcessors : Environment.ProcessorCount);
        EtwStackFiles.Write(phase.BundleRoot, phase.Name, mapping, facts);
        if (_settings.Workload is { } workload)
        {
            EtwStackFiles.WriteAtomically(phase.PathFor(BundlePaths.Processes(phase.Name)), workload.Write);
        }

        var offCpu = _settings.OffCpu ? ConvertOffCpu(log, phase, phaseStart, EtwSymbolMode.ModulesOnly, lost) : null;
        if (mapping.SampleCount == 0)
        {
            return new CollectorOutcome(Name, CollectorStatus.Failed, lost, "the trace holds no CPU samples");
        }

        if (_settings.Symbols is { } symbols && !cancellationToken.IsCancellationRequested)
        {
            try
            {
                ResolveSymbols(log, mapping, symbols, cancellationToken);
                EtwStackFiles.WriteStacks(phase.BundleRoot, phase.Name, EtwStackMapper.Map(source, phaseStart, EtwSymbolMode.Resolved, workload: _settings.Workload).Profile);
                if (offCpu is not null)
                {
                    ConvertOffCpu(log, phase, phaseStart, EtwSymbolMode.Resolved, lost);
                }
            }
            catch (OperationCanceledException)
            {
                _progress.Report("symbol loading interrupted; the stacks keep module-level frames");
            }
        }

        return lost > 0
            ? new CollectorOutcome(Name, CollectorStatus.Partial, lost, $"the session lost {lost} events")
            : new CollectorOutcome(Name, CollectorStatus.Ok);
    }

    // The server's threads' context switches into offcpu/*.csv; the outcome goes to the off-CPU collector.
    private EtwOffCpuSummary? ConvertOffCpu(TraceLog log, PhaseContext phase, DateTime phaseStart, EtwSymbolMode mode, long lost)
    {
        if (_settings.ServerPid is not { } pid)
        {
            _settings.OffCpuOutcome!.Set(new CollectorOutcome(EtwOffCpuFiles.CollectorName, CollectorStatus.Failed, 0,
                "the server's process id is unknown (SERVERPROPERTY('ProcessID')), so its threads cannot be told apart"));
            return null;
        }

        var summary = EtwOffCpuFiles.Write(phase, new TraceLogThreadSwitchSource(log, pid), _settings.ServerProcess, phaseStart, mode);
        if (mode == EtwSymbolMode.ModulesOnly)
        {
            _progress.Report(EtwOffCpuFiles.Progress(summary));
        }

        _settings.OffCpuOutcome!.Set(EtwOffCpuFiles.Outcome(summary, lost));
        return summary;
    }

    private void ResolveSymbols(TraceLog log, EtwStackMapping mapping, SymbolOptions symbols, CancellationToken cancellationToken)
    {
        var modules = SymbolResolutionPlan.Choose(mapping, _settings.ServerProcess, _settings.MaxSymbolModules);
        using var reader = new SymbolReader(TextWriter.Null, symbols.SymbolPath) { Options = symbols.ReaderOptions };
        for (var i = 0; i < modules.Count; i++)
        {
            cancellationToken.ThrowIfCancellationRequested();
            var file = mapping.ModuleFiles.GetValueOrDefault(modules[i], modules[i]);
            _progress.Report(SymbolResolutionPlan.ProgressMessage(file, i + 1, modules.Count));
            foreach (var moduleFile in log.ModuleFiles.Where(f => EtwModuleNames.ModuleName(f.FilePath) == modules[i]))
            {
                try
                {
                    log.CodeAddresses.LookupSymbolsForModule(reader, moduleFile);
                }
                catch (Exception e) when (e is not OperationCanceledException)
                {
                    _progress.Report($"no symbols for {file}: {e.Message}");
                }
            }
        }
    }

    private static void ZipTrace(string etl, string zipPath)
    {
        Core.Files.AtomicFile.Produce(zipPath, temp =>
        {
            using var zip = ZipFile.Open(temp, ZipArchiveMode.Create);
            zip.CreateEntryFromFile(etl, "trace.etl", CompressionLevel.Fastest);
        });
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
