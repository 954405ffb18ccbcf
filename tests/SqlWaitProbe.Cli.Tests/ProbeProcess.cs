using System.Diagnostics;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>Runs the built <c>probe</c> as a child process, as a user would.</summary>
public sealed class ProbeProcess : IDisposable
{
    private readonly Process _process;
    private readonly Task<string> _stdout;
    private readonly Task<string> _stderr;
    private readonly System.Text.StringBuilder _stderrSoFar = new();

    private ProbeProcess(Process process)
    {
        _process = process;
        _stdout = process.StandardOutput.ReadToEndAsync();
        _stderr = ReadErrorAsync(process.StandardError);
    }

    /// <summary>
    /// Waits until what the process has written to stderr so far satisfies <paramref name="seen"/>; false when it exits
    /// or <paramref name="timeout"/> passes first. Tests wait for a progress line instead of a fixed time.
    /// </summary>
    public async Task<bool> WaitForErrorAsync(Func<string, bool> seen, TimeSpan timeout)
    {
        var waited = Stopwatch.StartNew();
        while (waited.Elapsed < timeout)
        {
            string text;
            lock (_stderrSoFar)
            {
                text = _stderrSoFar.ToString();
            }

            if (seen(text))
            {
                return true;
            }

            if (_stderr.IsCompleted)
            {
                return false;
            }

            await Task.Delay(20);
        }

        return false;
    }

    private async Task<string> ReadErrorAsync(StreamReader reader)
    {
        var buffer = new char[4096];
        int read;
        while ((read = await reader.ReadAsync(buffer)) > 0)
        {
            lock (_stderrSoFar)
            {
                _stderrSoFar.Append(buffer, 0, read);
            }
        }

        lock (_stderrSoFar)
        {
            return _stderrSoFar.ToString();
        }
    }

    /// <summary>Process id.</summary>
    public int Id => _process.Id;

    /// <summary>True once the process has exited.</summary>
    public bool HasExited => _process.HasExited;

    /// <summary>Kills the process and its children at once.</summary>
    public void Kill() => _process.Kill(entireProcessTree: true);

    /// <summary>Path of probe.dll next to the test binaries.</summary>
    public static string Dll => Path.Combine(AppContext.BaseDirectory, "probe.dll");

    /// <summary>Starts <c>dotnet probe.dll ARGS</c> (with default SIGINT/SIGTERM handling) with redirected output and CI-style (non-interactive) progress.</summary>
    public static ProbeProcess Start(params string[] args) => Start(new Dictionary<string, string>(), args);

    /// <summary>As <see cref="Start(string[])"/> with extra environment variables (for example <c>TZ</c>).</summary>
    public static ProbeProcess Start(IReadOnlyDictionary<string, string> environment, params string[] args)
    {
        // A test run started in the background by a shell without job control inherits SIGINT as ignored, and a
        // child inherits that too; env (which execs, keeping the pid) restores the default so Ctrl+C tests are real.
        var info = new ProcessStartInfo("env") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        info.ArgumentList.Add("--default-signal=INT,TERM");
        info.ArgumentList.Add("dotnet");
        info.ArgumentList.Add(Dll);
        foreach (var a in args)
        {
            info.ArgumentList.Add(a);
        }

        info.Environment["CI"] = "1";
        foreach (var (name, value) in environment)
        {
            info.Environment[name] = value;
        }

        return new ProbeProcess(Process.Start(info)!);
    }

    /// <summary>Runs to the end and returns exit code, stdout and stderr.</summary>
    public static async Task<(int Exit, string Out, string Err)> RunAsync(TimeSpan timeout, params string[] args)
    {
        using var p = Start(args);
        return await p.WaitAsync(timeout);
    }

    /// <summary>Waits for exit (kills it after <paramref name="timeout"/> and fails).</summary>
    public async Task<(int Exit, string Out, string Err)> WaitAsync(TimeSpan timeout)
    {
        using var cts = new CancellationTokenSource(timeout);
        try
        {
            await _process.WaitForExitAsync(cts.Token);
        }
        catch (OperationCanceledException)
        {
            _process.Kill(entireProcessTree: true);
            throw new TimeoutException($"probe did not exit within {timeout.TotalSeconds} s; stderr: {await _stderr}");
        }

        return (_process.ExitCode, await _stdout, await _stderr);
    }

    /// <inheritdoc />
    public void Dispose() => _process.Dispose();
}
