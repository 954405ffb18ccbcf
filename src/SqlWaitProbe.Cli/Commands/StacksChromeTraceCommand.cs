using System.CommandLine;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Reporting.ChromeTrace;

namespace SqlWaitProbe.Cli.Commands;

/// <summary><c>probe stacks chrome-trace</c>: Chrome Trace Event JSON, which Perfetto and chrome://tracing open as a flame chart.</summary>
public static class StacksChromeTraceCommand
{
    public static Command Create(IProbeConsole console) => StacksConversion.Create(
        console,
        "chrome-trace",
        "Convert stacks to Chrome trace JSON for Perfetto: one track per process, stacks as nested spans (1 ms per sample).",
        "The .json file to write (open it at ui.perfetto.dev), or - for stdout",
        ChromeTraceWriter.Write);
}
