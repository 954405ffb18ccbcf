using System.CommandLine;
using SqlWaitProbe.Cli.Commands;
using SqlWaitProbe.Cli.Composition;
using SqlWaitProbe.Core.Engines;

namespace SqlWaitProbe.Cli.Infrastructure;

/// <summary>
/// Tab completions for values that have a fixed set of answers: engines, CPU collectors, output formats,
/// extended-event streams and workload names. Options that accept only listed values complete by themselves.
/// </summary>
internal static class Completions
{
    // Declared options carry their own values; the engines and their workloads come from the registered list.
    private static readonly Dictionary<string, Func<IEnumerable<string>>> ByOption = new(
        CaptureOptionList.All.Where(o => o.Completions is not null).Select(o => KeyValuePair.Create(o.Name, o.Completions!))
            .Append(KeyValuePair.Create<string, Func<IEnumerable<string>>>(EngineCatalog.Engine.Name, () => EngineCatalog.Names))
            .Append(KeyValuePair.Create<string, Func<IEnumerable<string>>>(CommonOptions.Workload.Name, WorkloadsCommand.Names)),
        StringComparer.Ordinal);

    /// <summary>Adds the completion sources to every matching option and argument under <paramref name="command"/>.</summary>
    public static void Attach(Command command)
    {
        foreach (var option in command.Options)
        {
            if (ByOption.TryGetValue(option.Name, out var values) && option.CompletionSources.Count <= 1)
            {
                option.CompletionSources.Add(_ => values());

                // Help lists short value sets in the option's label; a dozen workload names would crowd it out.
                if (option.Name == CommonOptions.Workload.Name)
                {
                    option.HelpName ??= CommonOptions.Workload.HelpName;
                }
            }
            else if (option.Name == "--format" && option.GetCompletions(System.CommandLine.Completions.CompletionContext.Empty).All(c => c.Label is "True" or "False" || string.IsNullOrEmpty(c.Label)))
            {
                option.CompletionSources.Add("table", "json");
            }
        }

        if (command.Name == "show" && command.Parents.OfType<Command>().Any(p => p.Name == "workloads"))
        {
            foreach (var argument in command.Arguments)
            {
                argument.CompletionSources.Add(_ => WorkloadsCommand.Names());
                argument.HelpName ??= "name";
            }
        }

        foreach (var sub in command.Subcommands)
        {
            Attach(sub);
        }
    }
}
