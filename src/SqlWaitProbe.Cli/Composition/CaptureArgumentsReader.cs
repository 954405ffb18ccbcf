using System.CommandLine;
using SqlWaitProbe.Cli.Commands;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Engines;

namespace SqlWaitProbe.Cli.Composition;

/// <summary>Copies the parsed <c>probe capture</c> options into <see cref="CaptureArguments"/>; engines and the capture session validate them.</summary>
public static class CaptureArgumentsReader
{
    /// <summary>The arguments of <paramref name="parse"/>, as typed.</summary>
    public static CaptureArguments Read(ParseResult parse) => new()
    {
        Engine = parse.GetValue(CaptureOptions.Engine)?.ToLowerInvariant() ?? "postgres",
        Server = parse.GetValue(CaptureOptions.Server),
        Workload = parse.GetValue(CaptureOptions.Workload),
        SqlFile = parse.GetValue(CaptureOptions.SqlFile)?.FullName,
        Proc = parse.GetValue(CaptureOptions.Proc),
        Threads = parse.GetValue(CaptureOptions.Threads) ?? "8",
        Duration = parse.GetValue(CaptureOptions.Duration),
        Iterations = parse.GetValue(CaptureOptions.Iterations),
        NoBaseline = parse.GetValue(CaptureOptions.NoBaseline),
        Scale = parse.GetValue(CaptureOptions.Scale),
        SampleHz = parse.GetValue(CaptureOptions.SampleHz),
        Cpu = parse.GetValue(CaptureOptions.Cpu)?.ToLowerInvariant(),
        OffCpu = parse.GetValue(CaptureOptions.OffCpu)?.ToLowerInvariant(),
        Output = parse.GetValue(CaptureOptions.Output)?.FullName,
        DryRun = parse.GetValue(CaptureOptions.DryRun),
        Attach = parse.GetValue(CaptureOptions.Attach),
        Database = parse.GetValue(CaptureOptions.Database),
        User = parse.GetValue(CaptureOptions.User),
        PasswordEnv = parse.GetValue(CaptureOptions.PasswordEnv),
        Encrypt = parse.GetValue(CaptureOptions.Encrypt),
        TrustServerCertificate = parse.GetValue(CaptureOptions.TrustServerCertificate),
        Xe = parse.GetValue(CaptureOptions.Xe) ?? [],
        SnapshotInterval = parse.GetValue(CaptureOptions.SnapshotInterval) ?? "1s",
        Application = parse.GetValue(CaptureOptions.Application),
        Login = parse.GetValue(CaptureOptions.Login),
        SessionIds = parse.GetValue(CaptureOptions.SessionIds),
        ResetServerState = parse.GetValue(CaptureOptions.ResetServerState),
        Yes = parse.GetValue(CaptureOptions.Yes),
        MaxDuration = parse.GetValue(CaptureOptions.MaxDuration) ?? "2h",
        MaxPerfMegabytes = parse.GetValue(CaptureOptions.MaxPerfMegabytes),
        CallGraph = parse.GetValue(CaptureOptions.CallGraph),
        MaxXeMegabytes = parse.GetValue(CaptureOptions.MaxXeMegabytes),
        MinFreeDiskMegabytes = parse.GetValue(CaptureOptions.MinFreeDiskMegabytes),
        Symbols = parse.GetValue(CaptureOptions.Symbols),
        Offline = parse.GetValue(CaptureOptions.Offline),
        NoAnalyze = parse.GetValue(CaptureOptions.NoAnalyze),
        Force = parse.GetValue(CaptureOptions.Force),
        Verbose = parse.GetValue(GlobalOptions.Verbose),
        Given = Given(parse),
    };

    private static List<KeyValuePair<string, string>> Given(ParseResult parse)
    {
        var given = new List<KeyValuePair<string, string>>();
        foreach (var option in CaptureOptions.All)
        {
            var result = parse.GetResult(option);
            if (result is null || result.Implicit)
            {
                continue;
            }

            given.Add(new(option.Name, result.Tokens.Count == 0 ? "true" : string.Join(",", result.Tokens.Select(t => t.Value))));
        }

        return given;
    }
}
