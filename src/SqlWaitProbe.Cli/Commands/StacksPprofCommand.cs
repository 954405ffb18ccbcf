using System.CommandLine;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Reporting.Pprof;

namespace SqlWaitProbe.Cli.Commands;

/// <summary><c>probe stacks pprof</c>: pprof's gzipped profile.proto, for go tool pprof, Pyroscope and other pprof readers.</summary>
public static class StacksPprofCommand
{
    public static Command Create(IProbeConsole console) => StacksConversion.Create(
        console,
        "pprof",
        "Convert stacks to pprof's gzipped protobuf profile; each process is a 'process' label.",
        "The .pb.gz file to write (read it with 'go tool pprof FILE'), or - for stdout",
        (profile, unit, _, stream) => PprofWriter.Write(profile, unit, stream));
}
