using SqlWaitProbe.Core.Cleanup;

namespace SqlWaitProbe.Linux.PerfRecord;

/// <summary>Finds <c>perf record</c> children of killed captures through their pid files, stops them and deletes their data.</summary>
public sealed class PerfLeftoverCleaner : ILeftoverCleaner
{
    /// <inheritdoc />
    public string Name => "perf";

    /// <inheritdoc />
    public Task<IReadOnlyList<Leftover>> FindAsync(CancellationToken cancellationToken)
    {
        var found = new List<Leftover>();
        foreach (var path in Directory.EnumerateFiles(Path.GetTempPath(), PerfPidFile.Prefix + "*.json"))
        {
            var pid = PerfPidFile.TryRead(path);
            if (pid is null || Directory.Exists($"/proc/{pid.ProbePid}"))
            {
                continue;
            }

            var alive = Signals.IsRunning(pid.PerfPid, "record");
            found.Add(new Leftover("perf", path, alive
                ? $"perf record (pid {pid.PerfPid}) of run {pid.RunId}, still sampling, data {pid.DataPath}"
                : $"pid file and data of run {pid.RunId}'s perf record (no longer running)"));
        }

        // Data files whose pid file is gone belong to no running capture (a running one keeps its pid file).
        foreach (var data in Directory.EnumerateFiles(Path.GetTempPath(), PerfPidFile.Prefix + "*.data*"))
        {
            var stem = data[..(data.IndexOf(".data", StringComparison.Ordinal))];
            if (!File.Exists(stem + ".json"))
            {
                found.Add(new Leftover("perf", data, $"perf data file of a killed capture: {data}"));
            }
        }

        return Task.FromResult<IReadOnlyList<Leftover>>(found);
    }

    /// <inheritdoc />
    public async Task<string> RemoveAsync(Leftover leftover, CancellationToken cancellationToken)
    {
        if (!leftover.Id.EndsWith(".json", StringComparison.Ordinal))
        {
            File.Delete(leftover.Id);
            return "removed " + leftover.Id;
        }

        var pid = PerfPidFile.TryRead(leftover.Id);
        var done = "removed " + leftover.Id;
        if (pid is not null)
        {
            if (Signals.IsRunning(pid.PerfPid, "record"))
            {
                Signals.Send(pid.PerfPid, Signals.Kill);
                for (var i = 0; i < 50 && Signals.IsRunning(pid.PerfPid, "record"); i++)
                {
                    await Task.Delay(100, cancellationToken);
                }

                done = $"stopped perf record (pid {pid.PerfPid}) and removed its files";
            }

            foreach (var file in new[] { pid.DataPath, pid.DataPath + ".old", pid.DataPath + ".log" })
            {
                if (file.Length > 0 && File.Exists(file))
                {
                    File.Delete(file);
                }
            }
        }

        File.Delete(leftover.Id);
        return done;
    }
}
