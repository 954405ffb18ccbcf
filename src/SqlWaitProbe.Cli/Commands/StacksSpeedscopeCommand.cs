using System.CommandLine;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Reporting.Speedscope;

namespace SqlWaitProbe.Cli.Commands;

/// <summary><c>probe stacks speedscope</c>: a speedscope JSON file, one sampled profile per process.</summary>
public static class StacksSpeedscopeCommand
{
    public static Command Create(IProbeConsole console) => StacksConversion.Create(
        console,
        "speedscope",
        "Convert stacks to speedscope's JSON format.",
        "The JSON file to write (open it at speedscope.app)",
        (profile, unit, source, stream) =>
        {
            // The weights keep their unit: a speedscope input its own, perf cpu-clock periods nanoseconds, counts none.
            var file = SpeedscopeWriter.Convert(profile, source);
            foreach (var p in file.Profiles)
            {
                p.Unit = unit;
            }

            SpeedscopeWriter.Write(file, stream);
        });
}
