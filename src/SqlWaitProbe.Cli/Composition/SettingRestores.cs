using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Core.ServerSettings;
using SqlWaitProbe.Modules;

namespace SqlWaitProbe.Cli.Composition;

/// <summary>
/// <c>probe cleanup --restore-settings</c>: puts back a server setting a killed experiment left changed, from its record.
/// It connects as the experiment did (the password from the environment variable it named), sends the restore only when
/// the server still has the identity recorded with the change, and reads the setting back.
/// </summary>
internal static class SettingRestores
{
    /// <summary>Restores <paramref name="record"/>'s setting; throws <see cref="InvalidOperationException"/> saying why it did not.</summary>
    public static async Task<string> RestoreAsync(RunResource record, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(record);
        var parts = (record.ChangedSetting ?? "").Split(' ', 2);
        if (parts.Length != 2 || record.SettingTarget is not { Server: not null } target || record.SettingBefore is not { } before || record.SettingIdentity is not { } identity)
        {
            throw new InvalidOperationException($"the record of {record.ChangedSetting} names no server, identity or earlier value to restore; send its statements yourself: {string.Join(" ", record.RestoreStatements)}");
        }

        var (engineName, name) = (parts[0], parts[1]);
        var engine = Registered.Engines.FirstOrDefault(e => e.Name == engineName)?.Experiments
            ?? throw new InvalidOperationException($"this probe runs no experiments on {engineName}; the record of {name} is kept");
        var setting = engine.Catalog.Find(name) ?? throw new InvalidOperationException($"this probe does not know the setting {name}; the record is kept");
        try
        {
            await using var server = await engine.OpenAsync(target, new RunScope("cleanup", Guid.NewGuid().ToString("N")[..10]), 2, new Progress<string>(), cancellationToken);
            var now = await server.IdentityAsync(cancellationToken);
            if (now != identity)
            {
                throw new InvalidOperationException($"{server.Describe} is now {now}, not {identity} where {name} was changed; nothing was sent and the record is kept");
            }

            foreach (var statement in record.RestoreStatements)
            {
                await server.ExecuteAsync(statement, cancellationToken);
            }

            // A reload reaches the server's sessions a moment after it returns.
            var value = (await server.ReadAsync(setting, cancellationToken))?.Effective;
            for (var wait = 0; wait < 20 && !(value is not null && engine.Catalog.Matches(setting, before, value)); wait++)
            {
                await Task.Delay(100, cancellationToken);
                value = (await server.ReadAsync(setting, cancellationToken))?.Effective;
            }

            if (value is null || !engine.Catalog.Matches(setting, before, value))
            {
                throw new InvalidOperationException($"{name} reads {value ?? "nothing"} on {server.Describe} after its restore, not {before}; the record is kept");
            }

            return $"restored {name} to {before} on {server.Describe} (read back: {value})";
        }
        catch (Exception e) when (e is BadInputException or EnvironmentProblemException || (e is not (InvalidOperationException or OperationCanceledException or OutOfMemoryException)))
        {
            throw new InvalidOperationException($"could not restore {name} on {record.SettingServer}: {e.Message.Split('\n')[0]}; the record is kept", e);
        }
    }
}
