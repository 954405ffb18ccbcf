using System.CommandLine;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.Modules;
using SqlWaitProbe.Reporting;
using SqlWaitProbe.Packing;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>The <c>probe pack</c> command: verifies a bundle and zips it with its report for a ticket.</summary>
public static class PackCommand
{
    public static Command Create(IProbeConsole console)
    {
        var bundleArg = new Argument<string>("bundle") { Description = "Capture bundle folder or .zip." };
        var output = new Option<string>("--output", "-o") { Description = "The zip to write, e.g. ticket.zip.", Required = true };
        var redact = new Option<bool>("--redact") { Description = "Replace host, database, login and application names, query text (the workload's and every statement the sessions ran) and local folders with placeholders (host-1, db-1, login-1, app-1, query-1, path-1; user names in home folders become user), leave out query plans, and make the report anew from the redacted files." };
        var force = new Option<bool>("--force") { Description = "Overwrite the zip if it exists." };
        var withTrace = new Option<bool>("--with-trace") { Description = "Also pack the raw ETW traces of a Windows capture (cpu/trace.etl; large, and never redacted, so not with --redact)." };
        var command = new Command("pack", "Verify a capture bundle's file hashes and zip it with its report for a support ticket.");
        command.Arguments.Add(bundleArg);
        command.Options.Add(output);
        command.Options.Add(redact);
        command.Options.Add(withTrace);
        command.Options.Add(force);
        command.SetAction((parse, ct) => CommandRunner.RunAsync(console, parse, ct, async token =>
        {
            if (parse.GetValue(withTrace) && parse.GetValue(redact))
            {
                throw new BadInputException("--with-trace cannot go with --redact: an ETW trace holds every process's names and paths and cannot be redacted");
            }

            var path = parse.GetValue(bundleArg)!;
            var zip = parse.GetValue(output)!;
            using var bundle = CaptureBundle.Open(path, cancellationToken: token);
            var problems = bundle.CheckFiles(includeUnlisted: false);
            if (problems.Count > 0)
            {
                throw new BadInputException($"{problems.Count} file(s) differ from the manifest; not packing: {string.Join("; ", problems.Take(3).Select(p => $"{p.Path}: {p.Problem}"))}{(problems.Count > 3 ? "; …" : "")}", path);
            }

            var reportFolder = Path.Combine(bundle.Root, BundlePaths.ReportFolder);
            if (!Directory.Exists(reportFolder))
            {
                try
                {
                    await ProgressReporter.RunAsync(console, "building the report first", progress =>
                        ReportBuilder.BuildAsync(bundle, reportFolder, Registered.Analysis, progress, token));
                }
                catch (Exception e) when (DiskFull.Is(e))
                {
                    // The report this run began would be packed half-made next time: it goes.
                    if (Directory.Exists(reportFolder))
                    {
                        Directory.Delete(reportFolder, recursive: true);
                    }

                    throw;
                }
            }

            // A redacted pack's report is made anew from the redacted copy (BundlePacker says why).
            void Rebuild(string staging)
            {
                using var redacted = CaptureBundle.Open(staging, cancellationToken: token);
                ReportBuilder.BuildAsync(redacted, Path.Combine(staging, BundlePaths.ReportFolder), Registered.Analysis, new Progress<string>(), token).GetAwaiter().GetResult();
            }

            foreach (var note in BundlePacker.Pack(bundle, zip, parse.GetValue(redact) ? Registered.Redaction : null, parse.GetValue(withTrace), parse.GetValue(redact) ? Rebuild : null))
            {
                console.Out.WriteLine(TerminalText.Line(note));
            }

            console.Out.WriteLine($"wrote {Path.GetFullPath(zip)} ({new FileInfo(zip).Length} bytes)");
            return (int)ExitCode.Success;
        }, checkOutput: () =>
        {
            OutputPath.CheckFile(parse.GetValue(output)!, parse.GetValue(force), [parse.GetValue(bundleArg)!], devices: false);

            // The zip is written in a scratch run folder: a temporary folder that cannot hold one is said before the
            // report is built into the bundle, which would otherwise stay behind from a pack that wrote nothing.
            RuntimeFolder.Ensure(create: false);
        }));
        return command;
    }
}
