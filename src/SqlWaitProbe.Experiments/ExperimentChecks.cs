using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.ServerSettings;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Experiments;

/// <summary>
/// What can be checked of an experiment against its engine without a server: every setting known to the engine
/// (misspelt ones get the nearest name), changeable by the probe, with a value of its kind, at a level the server
/// allows; every script free of syntax errors the engine's parser finds. Each problem is bad input naming the line.
/// </summary>
public static class ExperimentChecks
{
    /// <summary>The settings of every variant, resolved; throws <see cref="BadInputException"/> at the first problem.</summary>
    public static IReadOnlyDictionary<string, SettingDefinition> Check(ExperimentDefinition experiment, ISettingCatalog catalog)
    {
        ArgumentNullException.ThrowIfNull(experiment);
        ArgumentNullException.ThrowIfNull(catalog);
        var found = new Dictionary<string, SettingDefinition>(StringComparer.Ordinal);
        foreach (var variant in experiment.Variants)
        {
            foreach (var request in variant.Settings)
            {
                var setting = catalog.Find(request.Name)
                    ?? throw new BadInputException($"variant {variant.Name}: unknown setting '{request.Name}' ({catalog.NameHelp}){NearestName.Hint(request.Name, catalog.Names)}", experiment.File, request.Line);
                if (setting.Refusal is { } refusal)
                {
                    throw new BadInputException($"variant {variant.Name}: {setting.Name} cannot be changed by an experiment: {refusal}", experiment.File, request.Line);
                }

                if (catalog.CheckValue(setting, request.Value) is { } wrong)
                {
                    throw new BadInputException($"variant {variant.Name}: {setting.Name} = '{request.Value}': {wrong}", experiment.File, request.Line);
                }

                if (setting.Level == SettingLevel.Restart && experiment.Server is not null)
                {
                    throw new BadInputException(
                        $"variant {variant.Name}: {setting.Name} takes effect only when the server restarts; the probe restarts only the embedded server it starts itself (leave 'server:' out), never another one",
                        experiment.File, request.Line);
                }

                found[request.Name] = setting;
            }
        }

        foreach (var script in Scripts(experiment))
        {
            if (catalog.Check(script.Text) is [var first, ..])
            {
                throw new BadInputException($"{script.Role}, batch {first.Batch}: {first.Message}", script.File, script.Line + first.Line - 1);
            }
        }

        return found;
    }

    /// <summary>Every script of the experiment, in run order.</summary>
    public static IEnumerable<ExperimentScript> Scripts(ExperimentDefinition experiment)
    {
        ArgumentNullException.ThrowIfNull(experiment);
        if (experiment.Setup is { } setup)
        {
            yield return setup;
        }

        if (experiment.Workload.Sql is { } sql)
        {
            yield return sql;
        }

        foreach (var v in experiment.Variants)
        {
            foreach (var script in new[] { v.Before, v.After, v.Background?.Sql }.OfType<ExperimentScript>())
            {
                yield return script;
            }
        }

        if (experiment.Teardown is { } teardown)
        {
            yield return teardown;
        }
    }
}
