using Serilog;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Core.ServerSettings;

namespace SqlWaitProbe.Experiments;

/// <summary>
/// Runs an experiment on a server: checks every setting there before anything runs, runs the setup once, then for
/// each variant applies its settings (reading each before), reads them back, runs its before-SQL and background load,
/// captures the fixed work, runs its after-SQL and restores every setting; the teardown runs at the end, after a
/// failure and after Ctrl+C too. Everything changed is restored whatever happens, and what could not be is said.
/// </summary>
public sealed class ExperimentRunner
{
    /// <summary>How long the teardown may take after a failure or Ctrl+C, which must not hang the exit.</summary>
    public static readonly TimeSpan TeardownLimit = TimeSpan.FromMinutes(2);

    private readonly ExperimentDefinition _experiment;
    private readonly ISettingCatalog _catalog;
    private readonly IReadOnlyDictionary<string, SettingDefinition> _settings;
    private readonly string _output;

    /// <summary>Creates the runner for a checked experiment (<see cref="ExperimentChecks.Check"/> gave <paramref name="settings"/>).</summary>
    public ExperimentRunner(ExperimentDefinition experiment, ISettingCatalog catalog, IReadOnlyDictionary<string, SettingDefinition> settings, string output)
    {
        _experiment = experiment;
        _catalog = catalog;
        _settings = settings;
        _output = output;
    }

    /// <summary>Where the experiment runs, recorded with each server-level change for <c>probe cleanup</c>.</summary>
    public ExperimentTarget? Target { get; init; }

    /// <summary>The bundle folder of variant <paramref name="variant"/>.</summary>
    public string BundleOf(ExperimentVariant variant) => Path.Combine(_output, variant.Name);

    /// <summary>
    /// Runs every variant on <paramref name="server"/> through <paramref name="capturer"/>. Bad input found on the
    /// server (a setting it lacks, a value it refuses, a failing setup) is thrown before any variant runs.
    /// </summary>
    public async Task<ExperimentOutcome> RunAsync(ISettingServer server, IVariantCapturer capturer, string runId, IProgress<string> progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(server);
        ArgumentNullException.ThrowIfNull(capturer);
        ArgumentNullException.ThrowIfNull(progress);
        await CheckOnServerAsync(server, cancellationToken);

        // On a server the experiment did not start, every change is recorded so a killed probe leaves a trail.
        using var record = server.Embedded ? null : RuntimeFolder.Run("experiment", runId);
        var identity = server.Embedded ? null : await server.IdentityAsync(cancellationToken);
        var results = new List<VariantResult>();
        var warnings = new List<string>();
        var notRestored = new List<string>();
        string status = BundleStatus.Complete;
        string? reason = null;
        Exception? badInput = null;
        var setupDone = false;
        try
        {
            if (_experiment.Setup is { } setup)
            {
                progress.Report("setup");
                await RunScriptAsync(server, setup, progress, cancellationToken);
            }

            setupDone = true;
            for (var i = 0; i < _experiment.Variants.Count && status == BundleStatus.Complete; i++)
            {
                var variant = _experiment.Variants[i];
                var restorer = new SettingRestorer(server, _catalog, _experiment.Engine, record, Target, identity);
                try
                {
                    var result = await RunVariantAsync(server, capturer, restorer, variant, i + 1, progress, warnings, cancellationToken);
                    results.Add(result);
                    if (result.Status != BundleStatus.Complete)
                    {
                        (status, reason) = (result.Status, $"variant {variant.Name}: {result.Status}");
                    }
                }
                finally
                {
                    notRestored.AddRange(await restorer.RestoreAllAsync(progress));
                }
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            (status, reason) = (BundleStatus.Interrupted, "ctrl-c");
        }
        catch (BadInputException e) when (!setupDone)
        {
            badInput = e;
        }
        catch (Exception e) when (e is not BadInputException)
        {
            Log.Error(e, "experiment failed");
            (status, reason) = (BundleStatus.Failed, e.Message.Split('\n')[0]);
        }
        finally
        {
            if (_experiment.Teardown is { } teardown && badInput is null)
            {
                using var limit = new CancellationTokenSource(TeardownLimit);
                try
                {
                    progress.Report("teardown");
                    await RunScriptAsync(server, teardown, progress, limit.Token);
                }
                catch (Exception e) when (e is not OutOfMemoryException)
                {
                    warnings.Add("the teardown failed: " + e.Message.Split('\n')[0]);
                }
            }
        }

        if (badInput is not null)
        {
            throw badInput;
        }

        return new ExperimentOutcome { Variants = results, Status = status, Reason = reason, NotRestored = notRestored, Warnings = warnings };
    }

    private async Task<VariantResult> RunVariantAsync(ISettingServer server, IVariantCapturer capturer, SettingRestorer restorer, ExperimentVariant variant, int index, IProgress<string> progress, List<string> warnings, CancellationToken cancellationToken)
    {
        progress.Report($"variant {index}/{_experiment.Variants.Count} {variant.Name}: applying {variant.Settings.Count} setting(s)");
        var sessionStatements = new List<string>();
        foreach (var request in variant.Settings)
        {
            var setting = _settings[request.Name];
            foreach (var (impliedName, impliedValue) in setting.Implies)
            {
                await restorer.ApplyAsync(_catalog.Find(impliedName)!, impliedValue, progress, cancellationToken);
            }

            switch (setting.Level)
            {
                case SettingLevel.Session:
                    sessionStatements.AddRange(_catalog.ApplyStatements(setting, request.Value));
                    break;
                case SettingLevel.Server or SettingLevel.Restart:
                    await restorer.ApplyAsync(setting, request.Value, progress, cancellationToken);
                    break;
            }
        }

        if (restorer.HoldsRestartSetting)
        {
            await server.RestartAsync(progress, cancellationToken);
        }

        var requested = variant.Settings.ToDictionary(s => _settings[s.Name].Name, s => s.Value, StringComparer.Ordinal);
        var effective = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var request in variant.Settings)
        {
            var setting = _settings[request.Name];
            var value = await server.ReadBackAsync(setting, sessionStatements, cancellationToken);
            effective[setting.Name] = value;
            if (!_catalog.Matches(setting, request.Value, value))
            {
                warnings.Add($"variant {variant.Name}: {setting.Name} reads back as {value}, not {request.Value} as asked");
            }
        }

        foreach (var name in _catalog.AlwaysRecorded.Where(n => !effective.ContainsKey(n)))
        {
            if (_catalog.Find(name) is not { } always)
            {
                continue;
            }

            try
            {
                if (await server.ReadAsync(always, cancellationToken) is { } now)
                {
                    effective[always.Name] = now.Effective;
                }
            }
            catch (Exception e) when (e is not (OperationCanceledException or OutOfMemoryException))
            {
                // Recorded for the reader, never needed to run (SQL Server 2016 before SP1 has no memory model column).
                effective[always.Name] = "not read: " + e.Message.Split('\n')[0];
            }
        }

        if (variant.Before is { } before)
        {
            await RunScriptAsync(server, before, progress, cancellationToken);
        }

        IBackgroundLoad? background = null;
        VariantOutcome outcome;
        try
        {
            if (variant.Background is { } b)
            {
                progress.Report($"variant {variant.Name}: starting {b.Sessions} background session(s)");
                background = await server.StartBackgroundAsync(b.Sql.Text, b.Sessions, [], cancellationToken);
            }

            var manifest = new BundleExperiment
            {
                File = Path.GetFileName(_experiment.File),
                Variant = variant.Name,
                Requested = requested,
                Effective = effective,
                BackgroundSessions = variant.Background?.Sessions ?? 0,
                BackgroundSessionIds = background?.SessionIds ?? [],
                BackgroundSql = variant.Background?.Sql.Text,
            };
            outcome = await capturer.CaptureAsync(new VariantCapture(variant, index, BundleOf(variant), server.CaptureServer, sessionStatements, manifest), progress, cancellationToken);
        }
        finally
        {
            if (background is not null)
            {
                if (background.FirstError is { } error)
                {
                    warnings.Add($"variant {variant.Name}: a background session failed: {error}");
                }

                await background.DisposeAsync();
            }
        }

        if (outcome.Status == BundleStatus.Complete && variant.After is { } after)
        {
            await RunScriptAsync(server, after, progress, cancellationToken);
        }

        return new VariantResult(variant.Name, outcome.Bundle, outcome.Status, requested, effective);
    }

    // Read-only: every setting exists on this server, startup-only and fixed ones already hold the value asked for,
    // and a session setting's value is one the server takes. Nothing is changed until all of it passed.
    private async Task CheckOnServerAsync(ISettingServer server, CancellationToken cancellationToken)
    {
        foreach (var variant in _experiment.Variants)
        {
            foreach (var request in variant.Settings)
            {
                var setting = _settings[request.Name];
                BadInputException Bad(string message) => new($"variant {variant.Name}: {message}", _experiment.File, request.Line);
                foreach (var (implied, _) in setting.Implies)
                {
                    if (await server.ReadAsync(_catalog.Find(implied)!, cancellationToken) is null)
                    {
                        throw Bad($"{setting.Name} needs {implied}, which {server.Describe} does not have");
                    }
                }

                SettingSnapshot? now;
                try
                {
                    now = await server.ReadAsync(setting, cancellationToken);
                }
                catch (BadInputException e)
                {
                    throw Bad(e.Message);
                }

                if (now is null)
                {
                    throw Bad($"{server.Describe} has no setting {setting.Name}");
                }

                if (setting.Level == SettingLevel.Startup && !_catalog.Matches(setting, request.Value, now.Effective))
                {
                    throw Bad($"{setting.Name} is fixed when the server starts and the probe never applies it; this server runs with {now.Effective}, not {request.Value}");
                }

                if (now.Fixed is { } why && !_catalog.Matches(setting, request.Value, now.Effective))
                {
                    throw Bad($"{setting.Name} = {request.Value} refused: {why} (it is {now.Effective})");
                }

                if (setting.Level == SettingLevel.Session)
                {
                    try
                    {
                        await server.ReadBackAsync(setting, _catalog.ApplyStatements(setting, request.Value), cancellationToken);
                    }
                    catch (Exception e) when (e is not (OperationCanceledException or EnvironmentProblemException or OutOfMemoryException))
                    {
                        throw Bad($"the server refuses {setting.Name} = '{request.Value}': {e.Message.Split('\n')[0]}");
                    }
                }
            }
        }
    }

    private async Task RunScriptAsync(ISettingServer server, ExperimentScript script, IProgress<string> progress, CancellationToken cancellationToken) =>
        await server.RunScriptAsync(_catalog.Split(script.Text), script.File, script.Line, script.Role, progress, cancellationToken);
}
