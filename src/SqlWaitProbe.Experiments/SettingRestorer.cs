using Serilog;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Core.ServerSettings;

namespace SqlWaitProbe.Experiments;

/// <summary>
/// Applies server-wide settings one at a time and puts them back in reverse order: each value is read before it is
/// changed, the change is recorded in the private runtime folder before it is sent (so <c>probe cleanup</c> can name
/// and restore what a killed probe left changed), and each restore is read back and compared with the value before.
/// </summary>
internal sealed class SettingRestorer(ISettingServer server, ISettingCatalog catalog, string engine, RunFolder? record, ExperimentTarget? target = null, string? identity = null)
{
    private readonly Stack<(SettingDefinition Setting, SettingSnapshot Before, string RecordName)> _applied = new();
    private int _recorded;

    /// <summary>True when a restart-level setting was changed and not yet put back.</summary>
    public bool HoldsRestartSetting => _applied.Any(a => a.Setting.Level == SettingLevel.Restart);

    /// <summary>Applies <paramref name="value"/> unless it is already in effect; returns whether it sent anything.</summary>
    public async Task<bool> ApplyAsync(SettingDefinition setting, string value, IProgress<string> progress, CancellationToken cancellationToken)
    {
        var before = await server.ReadAsync(setting, cancellationToken)
            ?? throw new InvalidOperationException($"{setting.Name} vanished from the server");
        if (catalog.Matches(setting, value, before.Effective))
        {
            return false;
        }

        var restore = catalog.RestoreStatements(setting, before);
        var name = $"setting-{++_recorded}";
        record?.Record(new RunResource
        {
            Name = name,
            Description = $"{engine} setting {setting.Name} changed on {server.Describe} (was {before.Effective})",
            ChangedSetting = $"{engine} {setting.Name}",
            SettingServer = server.Describe,
            SettingBefore = before.Effective,
            RestoreStatements = restore,
            SettingTarget = target,
            SettingIdentity = identity,
        });
        _applied.Push((setting, before, name));
        progress.Report($"set {setting.Name} = {value} (was {before.Effective})");
        foreach (var statement in catalog.ApplyStatements(setting, value))
        {
            await server.ExecuteAsync(statement, cancellationToken);
        }

        return true;
    }

    /// <summary>
    /// Puts back everything applied, newest first, whatever happened before (a failure, Ctrl+C): not cancellable. Returns
    /// a sentence for each setting that does not read back as it was, naming the statements that restore it.
    /// </summary>
    public async Task<IReadOnlyList<string>> RestoreAllAsync(IProgress<string> progress)
    {
        var problems = new List<string>();
        var restarted = false;
        var done = new List<(SettingDefinition Setting, SettingSnapshot Before, string RecordName)>();
        using var limit = new CancellationTokenSource(TimeSpan.FromMinutes(2));
        while (_applied.TryPop(out var entry))
        {
            var statements = catalog.RestoreStatements(entry.Setting, entry.Before);
            try
            {
                progress.Report($"restore {entry.Setting.Name} = {entry.Before.Effective}");
                foreach (var statement in statements)
                {
                    await server.ExecuteAsync(statement, limit.Token);
                }

                done.Add(entry);
            }
            catch (Exception e) when (e is not OutOfMemoryException)
            {
                Log.Error(e, "restoring {Setting} failed", entry.Setting.Name);
                problems.Add($"{entry.Setting.Name} was not restored to {entry.Before.Effective} ({e.Message.Split('\n')[0]}); restore it with: {string.Join(" ", statements)}");
            }
        }

        if (done.Any(d => d.Setting.Level == SettingLevel.Restart) && server.Embedded)
        {
            await server.RestartAsync(progress, limit.Token);
            restarted = true;
        }

        foreach (var (setting, before, recordName) in done)
        {
            // A reload reaches each backend between its statements, a moment after pg_reload_conf() returns.
            var now = (await server.ReadAsync(setting, limit.Token))?.Effective;
            for (var wait = 0; wait < 20 && !(now is not null && catalog.Matches(setting, before.Effective, now)); wait++)
            {
                await Task.Delay(100, limit.Token);
                now = (await server.ReadAsync(setting, limit.Token))?.Effective;
            }

            if (now is not null && catalog.Matches(setting, before.Effective, now))
            {
                record?.Forget(recordName);
                continue;
            }

            problems.Add($"{setting.Name} reads {now ?? "nothing"} after its restore, not {before.Effective} as before{(restarted ? " (after a restart)" : "")}; restore it with: {string.Join(" ", catalog.RestoreStatements(setting, before))}");
        }

        return problems;
    }
}
