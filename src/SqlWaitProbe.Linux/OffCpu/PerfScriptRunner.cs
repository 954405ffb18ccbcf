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
    public static async Task WriteGzipAsync(IReadOnlyList<string> arguments, string path, string what, CancellationToken cancellationToken)
    {
        var info = SqlWaitProbe.Core.Runtime.ChildEnvironment.Minimal(new ProcessStartInfo("perf") { UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true, RedirectStandardInput = true }, "PERF_");
        foreach (var a in arguments)
        {
            info.ArgumentList.Add(a);
        }

        using var script = Process.Start(info) ?? throw new InvalidOperationException("perf script did not start");
        script.StandardInput.Close();
        var errors = script.StandardError.ReadToEndAsync(CancellationToken.None);
        await Core.Files.AtomicFile.ProduceAsync(path, async temp =>
        {
            try
            {
                await using (var file = File.Create(temp))
                await using (var gzip = new GZipStream(file, CompressionLevel.Fastest))
                {
                    await script.StandardOutput.BaseStream.CopyToAsync(gzip, cancellationToken);
                }

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
        });
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
