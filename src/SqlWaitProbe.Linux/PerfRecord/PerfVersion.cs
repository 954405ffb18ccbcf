using System.Diagnostics;
using System.Globalization;
using System.Text.RegularExpressions;

namespace SqlWaitProbe.Linux.PerfRecord;

/// <summary>
/// The installed perf's version, read once from <c>perf --version</c>, and the record options that depend on it.
/// </summary>
public static partial class PerfVersion
{
    private static readonly Lazy<Version?> Installed = new(Read);

    /// <summary>The installed perf's version, or null when perf does not run or says something unexpected.</summary>
    public static Version? Current => Installed.Value;

    /// <summary>
    /// <c>--no-bpf-event</c> (perf 5.1 and later) when perf has it: perf record otherwise starts a side-band thread that
    /// follows BPF programs being loaded, and at exit waits for that thread's one-second poll to time out. Measured with
    /// perf 6.1 on Linux (docs/performance.md, "Test suite"): <c>perf record -a -g -- true</c> takes 1.1 s with it and
    /// 0.16 s without, so every phase's collectors started and stopped a second sooner. What is lost: names of BPF
    /// programs' JIT code in the samples, which no SQL workload runs.
    /// </summary>
    public static IReadOnlyList<string> SidebandArguments() => SidebandArguments(Current);

    /// <summary><see cref="SidebandArguments()"/> for a given perf version (null: unknown, so none).</summary>
    public static IReadOnlyList<string> SidebandArguments(Version? version) =>
        version is not null && version >= new Version(5, 1) ? ["--no-bpf-event"] : [];

    /// <summary>The version in a line such as <c>perf version 6.1.187</c> or <c>perf version 5.10.0-rc2</c>, or null.</summary>
    public static Version? Parse(string? text)
    {
        var match = text is null ? null : VersionPattern().Match(text);
        return match is { Success: true }
            ? new Version(int.Parse(match.Groups[1].Value, CultureInfo.InvariantCulture), int.Parse(match.Groups[2].Value, CultureInfo.InvariantCulture))
            : null;
    }

    // Every wait is bounded: the version only adds an option, so a perf that does not answer within 10 s, or whose
    // output does not end, leaves the command line as it was.
    private static Version? Read()
    {
        try
        {
            using var p = Process.Start(new ProcessStartInfo("perf", "--version")
            {
                RedirectStandardOutput = true, RedirectStandardError = true, RedirectStandardInput = true, UseShellExecute = false,
            });
            if (p is null)
            {
                return null;
            }

            p.StandardInput.Close();
            var output = p.StandardOutput.ReadToEndAsync();
            _ = p.StandardError.ReadToEndAsync();
            if (!p.WaitForExit(10_000))
            {
                p.Kill();
                return null;
            }

            return p.ExitCode == 0 && output.Wait(TimeSpan.FromSeconds(2)) ? Parse(output.Result) : null;
        }
        catch (Exception e) when (e is System.ComponentModel.Win32Exception or InvalidOperationException or AggregateException)
        {
            return null;
        }
    }

    [GeneratedRegex(@"perf version (\d+)\.(\d+)")]
    private static partial Regex VersionPattern();
}
