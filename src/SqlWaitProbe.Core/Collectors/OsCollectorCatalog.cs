using SqlWaitProbe.Core.Options;

namespace SqlWaitProbe.Core.Collectors;

/// <summary>
/// The OS collectors a capture can run on this machine, and what it decides with them for one capture: validate, refuse,
/// choose, then make fresh collectors for each phase. Nothing here names a collector; each module decides for itself.
/// </summary>
/// <param name="Modules">This OS's catalog, in start order within each stage.</param>
/// <param name="OtherOsOptions">The options of other OSes' collectors: still checked, so a bad value is refused anywhere.</param>
public sealed record OsCollectorCatalog(IReadOnlyList<IOsCollectorModule> Modules, IReadOnlyList<IOptionSpec> OtherOsOptions)
{
    /// <summary>Every option the collectors of any OS declare, each once.</summary>
    public IReadOnlyList<IOptionSpec> AllOptions => [.. Modules.SelectMany(m => m.Options).Concat(OtherOsOptions).DistinctBy(o => o.Name)];

    /// <summary>The first input error (exit 2) in the collectors' options, their own checks first in help order, or null.</summary>
    public string? Validate(OptionValues options)
    {
        ArgumentNullException.ThrowIfNull(options);
        foreach (var option in AllOptions.OrderBy(o => o.HelpOrder))
        {
            try
            {
                options.Check(option);
            }
            catch (Errors.BadInputException e)
            {
                return e.Message;
            }
        }

        return Modules.Select(m => m.Validate(options)).FirstOrDefault(e => e is not null);
    }

    /// <summary>Why the capture must not start (exit 1): a collector the user named cannot run here; null otherwise.</summary>
    public string? Refusal(OptionValues options) => Modules.Select(m => m.Refusal(options)).FirstOrDefault(r => r is not null);

    /// <summary>Each module's choices for this capture, in catalog order.</summary>
    public IReadOnlyList<ModuleChoices> Choose(OsSetup setup) => [.. Modules.Select(m => new ModuleChoices(m, m.Choose(setup)))];

    /// <summary>Fresh collectors of <paramref name="stage"/> for one phase, in catalog order.</summary>
    public static IEnumerable<ICollector> Create(IReadOnlyList<ModuleChoices> chosen, CollectorStage stage, PhaseContext phase, OsSetup setup) =>
        chosen.Where(c => c.Module.Stage == stage && c.Choices.Count > 0).SelectMany(c => c.Module.Create(c.Choices, phase, setup));
}
