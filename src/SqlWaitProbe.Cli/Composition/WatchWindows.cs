using System.Globalization;
using SqlWaitProbe.Capture;
using SqlWaitProbe.Capture.Watch;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Core.Watch;
using SqlWaitProbe.Linux.Proc;
using SqlWaitProbe.Modules;

namespace SqlWaitProbe.Cli.Composition;

/// <summary>
/// The windows of a watch as the command line makes them: each an attach capture built from the watch's own options,
/// exactly as <c>probe capture --attach</c> builds one (same engine module, OS collectors and checks), and each dump
/// analysed as a capture's bundle is.
/// </summary>
internal sealed class WatchWindows(OptionValues options, IProbeConsole console, bool verbose, RememberedSecret? secret = null) : IWatchHost
{
    /// <summary>The options with attach mode set, as a window reads them.</summary>
    public static OptionValues ForWindow(OptionValues options, string folder, TimeSpan longest) => options
        .With(CommonOptions.Attach, true)
        .With(CommonOptions.Duration, ((int)Math.Ceiling(longest.TotalSeconds)).ToString(CultureInfo.InvariantCulture) + "s")
        .With(SessionOptions.Output, new DirectoryInfo(folder))
        .With(SessionOptions.NoAnalyze, true);

    /// <inheritdoc />
    public CaptureRequest WindowRequest(string folder, TimeSpan longest, CancellationToken endWindow, Func<BundleTrigger?> trigger, Func<string?> stopReason)
    {
        var values = ForWindow(options, folder, longest);
        var scope = RunScope.NewCapture();

        // A window opens unattended, long after the command started: a password typed at the start is given again from
        // memory (the prompt was answered once), one from --password-env is read again.
        var engine = EngineCatalog.Find(values.Get(EngineCatalog.Engine)).Create(values, new EngineContext(secret?.Read, scope));
        if (engine is IWatchableEngine watchable)
        {
            watchable.OpenWhenNoneMatch = true;
        }

        return CaptureRequest.Build(values, engine, Registered.OsCollectors, scope) with
        {
            EndWindow = endWindow,
            HandlesSignals = false,
            Trigger = trigger,
            StopReason = stopReason,
        };
    }

    private readonly HostLoadReader _hostLoad = new();

    /// <inheritdoc />
    public HostSample? ReadHost(WatchReading reading) => _hostLoad.Read(reading);

    /// <inheritdoc />
    public ICaptureLog WindowLog() => new CaptureLog(console, verbose);

    /// <inheritdoc />
    public async Task<IReadOnlyList<string>> AnalyseAsync(string bundle, string status, CancellationToken cancellationToken)
    {
        var (_, findings, _) = await CaptureThenAnalyse.AnalyseAsync(bundle, status, new Progress<string>(), cancellationToken);
        return findings;
    }
}
