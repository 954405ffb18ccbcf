using System.CommandLine;
using System.Globalization;
using SqlWaitProbe.Capture;
using SqlWaitProbe.Capture.Watch;
using SqlWaitProbe.Cli.Composition;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.Core.Watch;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>
/// <c>probe watch</c>: attaches to a live server for as long as it runs, keeps the last <c>--keep</c> of every collector
/// in a ring of attach windows, and writes an ordinary bundle with its report when a trigger fires or
/// <c>probe watch --dump DIR</c> asks from another shell.
/// </summary>
public static class WatchCommand
{
    /// <summary>Capture options that make no sense for a watch: it always attaches, its windows' length and folders are its own.</summary>
    private static readonly HashSet<string> NotForWatch = new(StringComparer.Ordinal)
    {
        "--attach", "--duration", "--workload", "--sql", "--threads", "--iterations", "--finish-within", "--no-baseline", "--scale", "--force", "--yes", "--max-duration", "--no-analyze",
        "--proc", "--reset-server-state",
    };

    public static Command Create(IProbeConsole console)
    {
        var command = new Command("watch", "Watch a live server read-only for hours, keep the last --keep of CPU stacks, waits and statements in a ring, and write a bundle with its report when a trigger fires.");
        var binder = new OptionBinder([.. CaptureOptionList.All.Where(o => !NotForWatch.Contains(o.Name)), .. WatchOptions.All]);
        foreach (var option in binder.Options)
        {
            command.Options.Add(option);
        }

        command.SetAction((parse, ct) =>
        {
            var options = binder.Read(parse);
            var dump = options.Get(WatchOptions.Dump);
            if (dump is not null)
            {
                return CommandRunner.RunAsync(console, parse, ct, _ =>
                {
                    WatchDumpRequest.Ask(dump.FullName);
                    console.Out.WriteLine($"asked the watch on {dump.FullName} for a dump; it prints it when written");
                    return Task.FromResult((int)ExitCode.Success);
                });
            }

            var output = options.Get(SessionOptions.Output)?.FullName
                ?? Path.GetFullPath(Path.Combine("probe-runs", "watch-" + DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture)));
            // One prompt for the whole watch: the check, the watch's poll and every later window take the same answer.
            var secret = new RememberedSecret(console.IsInputRedirected ? null : prompt => ConsolePrompt.ReadSecret(console, prompt));
            if (options.Get(CommonOptions.DryRun))
            {
                return CommandRunner.RunAsync(console, parse, ct, token => DryRunAsync(console, options, output, secret, token), null, () => Validate(options, output, secret));
            }

            return CommandRunner.RunAsync(console, parse, ct, token => RunAsync(console, parse, options, output, secret, token), output, () => Validate(options, output, secret));
        });
        return command;
    }

    /// <summary>Everything a watch refuses, before its folder or log exists: one line and exit 2.</summary>
    private static void Validate(OptionValues options, string output, RememberedSecret secret)
    {
        if (string.IsNullOrWhiteSpace(options.Get(Core.Engines.CommonOptions.Server)))
        {
            throw new BadInputException("probe watch needs --server: it watches a live server read-only (give e.g. --server 'Host=db1;Username=me;Database=app')");
        }

        var values = WatchWindows.ForWindow(options, Path.Combine(output, WatchSession.RingFolder, "w-0"), TimeSpan.FromMinutes(1));
        var engine = EngineCatalog.Create(values, new EngineContext(secret.Read, Core.Runtime.RunScope.NewCapture()));
        if (engine is not IWatchableEngine watchable)
        {
            throw new BadInputException($"--engine {engine.Name} cannot watch yet: its engine gives no light poll of its sessions to measure triggers on; capture it with probe capture --attach");
        }

        WatchOptions.Read(options, watchable, output);
        if (File.Exists(output))
        {
            throw new BadInputException($"-o {output} is a file; give a folder for the dumps");
        }

        if (WatchLock.IsHeld(output))
        {
            throw new BadInputException($"another probe watch is writing into {output}; stop it first, or give this one another -o folder");
        }
    }

    private static async Task<int> RunAsync(IProbeConsole console, ParseResult parse, OptionValues options, string output, RememberedSecret secret, CancellationToken token)
    {
        var verbose = parse.GetValue(GlobalOptions.Verbose);
        var values = WatchWindows.ForWindow(options, Path.Combine(output, WatchSession.RingFolder, "w-0"), TimeSpan.FromMinutes(1));
        var engine = EngineCatalog.Create(values, new EngineContext(secret.Read, Core.Runtime.RunScope.NewCapture()));
        var watchable = (IWatchableEngine)engine;
        var settings = WatchOptions.Read(options, watchable, output);
        if (settings.Triggers.Count == 0)
        {
            Line(console, $"no --trigger: dumps only when asked with probe watch --dump {output}");
        }

        var progress = new SynchronousProgress(line => Line(console, line));
        WatchSession? session = null;
        using var signals = CaptureSignals.Begin(console.Error, () => session?.KillAll());
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(token, signals.Token);
        // Renewed once the watch runs: by then the command line has registered its own handler, which must come second.
        session = new WatchSession(settings, watchable, new WatchWindows(options, console, verbose, secret), progress, d => Dumped(console, d)) { Started = signals.Renew };
        var outcome = await session.RunAsync(() => signals.Reason, stop.Token);
        Line(console, $"watch ended ({outcome.Reason}): {Figures.Count(outcome.Dumps.Count, "dump")} written into {output}");
        return outcome.Reason is "ctrl-c" or "sigterm" ? (int)ExitCode.Interrupted : (int)ExitCode.Success;
    }

    /// <summary>What the watch would send, nothing sent or written: the triggers' poll and one window's attach capture.</summary>
    private static async Task<int> DryRunAsync(IProbeConsole console, OptionValues options, string output, RememberedSecret secret, CancellationToken token)
    {
        var probe = WatchWindows.ForWindow(options, Path.Combine(output, WatchSession.RingFolder, "w-0"), TimeSpan.FromMinutes(1));
        var watchable = (IWatchableEngine)EngineCatalog.Create(probe, new EngineContext(secret.Read, Core.Runtime.RunScope.NewCapture()));
        var settings = WatchOptions.Read(options, watchable, output);
        var longest = WatchSession.WindowLimit(settings);
        var window = EngineCatalog.Create(WatchWindows.ForWindow(options, Path.Combine(output, WatchSession.RingFolder, "w-1"), longest), new EngineContext(secret.Read, Core.Runtime.RunScope.NewCapture()));
        var o = console.Out;
        await o.WriteLineAsync($"-- probe watch --engine {window.Name} dry run: nothing was sent and nothing was written.");
        await o.WriteLineAsync($"-- triggers: {(settings.Triggers.Count == 0 ? "none (dumps only when asked with probe watch --dump)" : string.Join(", ", settings.Triggers.Select(t => t.Text)))}; keeps {settings.Keep.TotalSeconds:0.#} s before a trigger and {settings.After.TotalSeconds:0.#} s after; dumps into {output}");
        await o.WriteLineAsync($"-- the triggers' poll, every {settings.PollInterval.TotalMilliseconds:0} ms on one connection of its own:");
        await o.WriteLineAsync(watchable.MonitorStatement());
        await o.WriteLineAsync("GO");
        await o.WriteLineAsync($"-- every {settings.Keep.TotalSeconds:0.#} s a new window opens: the attach capture below, ended once a newer one holds --keep (at most {longest.TotalSeconds:0} s)");
        await window.WriteDryRunAsync(CapturePlan.ForAttach(longest), o, token);
        return (int)ExitCode.Success;
    }

    private static void Dumped(IProbeConsole console, WatchDump dump)
    {
        var findings = dump.Findings.Count == 0 ? "no findings" : "findings: " + string.Join(" | ", dump.Findings.Take(3));
        console.Out.WriteLine(TerminalText.Line($"dump: {dump.Folder} ({dump.Status}) — {dump.Trigger}; {findings}"));
        console.Out.WriteLine($"report: {Path.Combine(dump.Folder, "report", "report.html")}");
        console.Out.Flush();
    }

    private static void Line(IProbeConsole console, string line)
    {
        console.Error.WriteLine(DateTime.UtcNow.ToString("HH:mm:ss", CultureInfo.InvariantCulture) + "Z " + TerminalText.Line(line));
        console.Error.Flush();
    }

    private sealed class SynchronousProgress(Action<string> report) : IProgress<string>
    {
        public void Report(string value) => report(value);
    }
}
