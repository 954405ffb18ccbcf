using System.Diagnostics;
using System.Text;

namespace SqlWaitProbe.Postgres.Embedded;

/// <summary>Runs a server tool (initdb, pg_ctl) to completion, optionally as another OS user, capturing its output.</summary>
internal static class ToolProcess
{
    /// <summary>Runs <paramref name="file"/>; with <paramref name="runAs"/>, through <c>runuser -u USER --</c>.</summary>
    public static async Task<(int ExitCode, string Output)> RunAsync(string file, IEnumerable<string> arguments, string? runAs, TimeSpan timeout, CancellationToken cancellationToken)
    {
        var info = new ProcessStartInfo
        {
            FileName = runAs is null ? file : "runuser",
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = true,
            UseShellExecute = false,
        };
        if (runAs is not null)
        {
            info.ArgumentList.Add("-u");
            info.ArgumentList.Add(runAs);
            info.ArgumentList.Add("--");
            info.ArgumentList.Add(file);
        }

        foreach (var a in arguments)
        {
            info.ArgumentList.Add(a);
        }

        SqlWaitProbe.Core.Runtime.ChildEnvironment.Minimal(info);
        info.Environment["LC_ALL"] = "C";
        using var process = Process.Start(info) ?? throw new InvalidOperationException($"could not start {file}");
        process.StandardInput.Close();
        var output = new StringBuilder();
        var stdout = process.StandardOutput.ReadToEndAsync(CancellationToken.None);
        var stderr = process.StandardError.ReadToEndAsync(CancellationToken.None);
        using var limit = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        limit.CancelAfter(timeout);
        try
        {
            await process.WaitForExitAsync(limit.Token);
        }
        catch (OperationCanceledException)
        {
            try
            {
                process.Kill(entireProcessTree: true);
            }
            catch (InvalidOperationException)
            {
            }

            cancellationToken.ThrowIfCancellationRequested();
            throw new TimeoutException($"{Path.GetFileName(file)} did not finish within {timeout.TotalSeconds:0} s");
        }

        output.Append(await stdout).Append(await stderr);
        return (process.ExitCode, output.ToString());
    }
}
