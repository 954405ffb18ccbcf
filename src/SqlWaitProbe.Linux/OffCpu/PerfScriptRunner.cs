using System.Diagnostics;
using System.IO.Compression;

namespace SqlWaitProbe.Linux.OffCpu;

/// <summary>Runs <c>perf script</c> with given arguments and writes its output gzip-compressed through a temporary file.</summary>
internal static class PerfScriptRunner
{
    /// <summary>
    /// Runs <c>perf script</c> with <paramref name="arguments"/> and writes its output gzip-compressed to
    /// <paramref name="path"/> (atomically); <paramref name="what"/> names what the phase lacks when it fails
    /// (<c>stacks</c>, <c>off-CPU stacks</c>).
    /// </summary>
    public static Task WriteGzipAsync(IReadOnlyList<string> arguments, string path, string what, CancellationToken cancellationToken) =>
        WriteGzipAsync([arguments], path, what, cancellationToken);

    /// <summary>
    /// As <see cref="WriteGzipAsync(IReadOnlyList{string}, string, string, CancellationToken)"/>, for several runs of
    /// <c>perf script</c> one after the other (the segments of one recording), their outputs in one file in that order.
    /// </summary>
    public static async Task WriteGzipAsync(IReadOnlyList<IReadOnlyList<string>> runs, string path, string what, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(runs);
        await Core.Files.AtomicFile.ProduceAsync(path, async temp =>
        {
            await using var file = File.Create(temp);
            await using var gzip = new GZipStream(file, CompressionLevel.Fastest);
            foreach (var arguments in runs)
            {
                await RunIntoAsync(arguments, gzip, what, cancellationToken);
            }
        });
    }

    private static async Task RunIntoAsync(IReadOnlyList<string> arguments, Stream output, string what, CancellationToken cancellationToken)
    {
        var info = SqlWaitProbe.Core.Runtime.ChildEnvironment.Minimal(new ProcessStartInfo("perf") { UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true, RedirectStandardInput = true }, "PERF_");
        foreach (var a in arguments)
        {
            info.ArgumentList.Add(a);
        }

        using var script = Process.Start(info) ?? throw new InvalidOperationException("perf script did not start");
        script.StandardInput.Close();
        var errors = script.StandardError.ReadToEndAsync(CancellationToken.None);
        try
        {
            await script.StandardOutput.BaseStream.CopyToAsync(output, cancellationToken);
            await script.WaitForExitAsync(cancellationToken);
        }
        catch (OperationCanceledException)
        {
            Stop(script);
            throw new InvalidOperationException($"perf script did not finish in time; the phase has no {what}");
        }
        catch
        {
            // A write that failed (a full disk) leaves perf script blocked on its pipe: it must not outlive the probe.
            Stop(script);
            throw;
        }

        if (script.ExitCode != 0)
        {
            throw new InvalidOperationException($"perf script failed (exit {script.ExitCode}): {(await errors).Trim().Split('\n')[^1]}");
        }
    }

    private static void Stop(Process script)
    {
        try
        {
            if (!script.HasExited)
            {
                script.Kill(entireProcessTree: true);
            }

            script.WaitForExit(5000);
        }
        catch (Exception e) when (e is InvalidOperationException or System.ComponentModel.Win32Exception)
        {
        }
    }
}
