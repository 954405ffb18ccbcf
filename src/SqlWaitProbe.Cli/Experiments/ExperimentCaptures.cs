using System.CommandLine;
using System.Globalization;
using SqlWaitProbe.Capture;
using SqlWaitProbe.Cli.Composition;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.ServerSettings;
using SqlWaitProbe.Experiments;

namespace SqlWaitProbe.Cli.Experiments;

/// <summary>
/// Runs each variant as an ordinary <c>probe capture</c>: the experiment's fixed work becomes the capture's own
/// options, parsed and validated by the same declarations <c>probe capture</c> uses, so a variant's bundle is one
/// any other command reads, and what the dry run prints as a command line is what runs.
/// </summary>
internal sealed class ExperimentCaptures(ExperimentDefinition experiment, IExperimentEngine engine, string? workloadFile, IProbeConsole console, bool verbose) : IVariantCapturer
{
    private readonly OptionBinder _binder = new(CaptureOptionList.All);

    /// <summary>
    /// The <c>probe capture</c> arguments of one variant. <paramref name="server"/> is null for a check before the
    /// embedded server exists; <paramref name="sessionSettings"/> are the variant's session-level settings.
    /// </summary>
    public IReadOnlyList<string> Arguments(string? server, string output, IReadOnlyList<(string Name, string Value)> sessionSettings)
    {
        var args = new List<string> { "--engine", experiment.Engine };
        if (server is not null)
        {
            args.AddRange(["--server", engine.CaptureServer(server, sessionSettings)]);
        }

        if (experiment.Workload.BuiltIn is { } builtIn)
        {
            args.AddRange(["--workload", builtIn]);
        }
        else if (experiment.Workload.Procedure is { } proc)
        {
            args.AddRange(["--proc", proc]);
        }
        else
        {
            args.AddRange(["--sql", workloadFile ?? experiment.Workload.Sql!.File]);
        }

        args.AddRange(["--threads", string.Join(",", experiment.Threads.Select(t => t.ToString(CultureInfo.InvariantCulture)))]);
        if (experiment.IterationsTotal is { } total)
        {
            args.AddRange(["--iterations-total", total.ToString(CultureInfo.InvariantCulture)]);
        }
        else if (experiment.IterationsPerSession is { } n)
        {
            args.AddRange(["--iterations", n.ToString(CultureInfo.InvariantCulture)]);
        }
        else if (experiment.Duration is { } d)
        {
            args.AddRange(["--duration", d.TotalSeconds == Math.Floor(d.TotalSeconds) ? $"{(long)d.TotalSeconds}s" : d.ToString(@"hh\:mm\:ss", CultureInfo.InvariantCulture)]);
        }

        if (experiment.WarmupExecutions is { } warmup)
        {
            args.AddRange(["--warmup", warmup.ToString(CultureInfo.InvariantCulture)]);
        }
        else if (experiment.WarmupDuration is { } warmupTime)
        {
            args.AddRange(["--warmup", warmupTime.TotalMilliseconds % 1000 == 0 ? $"{(long)warmupTime.TotalSeconds}s" : warmupTime.ToString(@"hh\:mm\:ss", CultureInfo.InvariantCulture)]);
        }

        if (!experiment.Baseline)
        {
            args.Add("--no-baseline");
        }

        if (experiment.Scale is { } scale)
        {
            args.AddRange(["--scale", scale.ToString(CultureInfo.InvariantCulture)]);
        }

        if (experiment.Server is not null)
        {
            AddIf(args, "--database", experiment.Database);
            AddIf(args, "--user", experiment.User);
            AddIf(args, "--password-env", experiment.PasswordEnv);
            if (experiment.Encrypt)
            {
                args.Add("--encrypt");
            }

            if (experiment.TrustServerCertificate)
            {
                args.Add("--trust-server-certificate");
            }
        }

        args.AddRange(["-o", output]);
        return args;
    }

    /// <summary>
    /// Validates the capture of every variant as <c>probe capture</c> would, before anything runs; a bad workload
    /// name, SQL file or thread list is one line naming the experiment file.
    /// </summary>
    public void Check(string output)
    {
        foreach (var variant in experiment.Variants)
        {
            var args = Arguments(experiment.Server, Path.Combine(output, variant.Name), []);
            try
            {
                Request(args, null);
            }
            catch (BadInputException e)
            {
                throw new BadInputException($"the experiment's capture is refused: {e.Message}", experiment.File, e.File is null ? null : e.Line);
            }
        }
    }

    /// <inheritdoc />
    public async Task<VariantOutcome> CaptureAsync(VariantCapture capture, IProgress<string> progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(capture);
        var args = Arguments(capture.Server, capture.Output, SessionSettings(capture.Variant));
        var request = Request(args, capture.Manifest);
        OutputPath.CheckCaptureFolder(request.Output, force: false);
        var prefixed = new Progress<string>(line => progress.Report($"variant {capture.Index}/{experiment.Variants.Count} {capture.Variant.Name}: {line}"));
        var outcome = await CaptureThenAnalyse.RunAsync(request, new CaptureLog(console, verbose), console.Error, prefixed, cancellationToken);
        return new VariantOutcome(outcome.BundleRoot, outcome.Status, outcome.Reason);
    }

    /// <summary>The variant's session-level settings, which every workload session starts with.</summary>
    public IReadOnlyList<(string Name, string Value)> SessionSettings(ExperimentVariant variant) =>
        [.. variant.Settings.Select(s => (Setting: engine.Catalog.Find(s.Name)!, s.Value)).Where(s => s.Setting.Level == SettingLevel.Session).Select(s => (s.Setting.Name, s.Value))];

    /// <summary>
    /// How each phase splits the file's fixed work over its sessions, in words, one per session count (a total that a
    /// count does not divide gives the first sessions one more each); null when the phases run for a time.
    /// </summary>
    public IReadOnlyList<string>? IterationSplit()
    {
        if (experiment.IterationsTotal is null && experiment.IterationsPerSession is null)
        {
            return null;
        }

        var plan = Core.Engines.CapturePlan.Build(experiment.Threads, experiment.Baseline, null, experiment.IterationsPerSession, experiment.IterationsTotal);
        return [.. plan.Phases.Select(p => $"{p.Name} ({p.Threads} session(s)): {plan.DescribeIterations(p.Threads)}")];
    }

    private CaptureRequest Request(IReadOnlyList<string> args, BundleExperiment? manifest)
    {
        var command = new Command("capture");
        foreach (var option in _binder.Options)
        {
            command.Options.Add(option);
        }

        var parse = command.Parse([.. args]);
        if (parse.Errors is [var first, ..])
        {
            throw new BadInputException(first.Message);
        }

        return CaptureThenAnalyse.Request(_binder.Read(parse), console) with { Experiment = manifest };
    }

    private static void AddIf(List<string> args, string option, string? value)
    {
        if (value is not null)
        {
            args.AddRange([option, value]);
        }
    }
}
