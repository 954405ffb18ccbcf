using SqlWaitProbe.Core.ServerSettings;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.Experiments;

namespace SqlWaitProbe.Cli.Experiments;

/// <summary>
/// <c>probe experiment --dry-run</c>: every statement the experiment sends, in the order it sends them, restores
/// included, and each variant's capture as a <c>probe capture</c> command line. The statements come from the same
/// catalog the run uses.
/// </summary>
internal static class ExperimentDryRun
{
    /// <summary>Writes the plan of <paramref name="plan"/>.</summary>
    public static void Write(ExperimentPlan plan, TextWriter output)
    {
        var experiment = plan.Definition;
        var catalog = plan.Catalog;
        output.WriteLine($"-- experiment {Path.GetFileName(experiment.File)}: engine {experiment.Engine}, {(experiment.Server is not null ? "the server named in the file" : plan.Engine.OwnServer is { } own ? own + " started for the experiment" : "no server named in the file")}, {experiment.Variants.Count} variant(s)");
        foreach (var split in plan.Captures.IterationSplit() ?? [])
        {
            output.WriteLine(TerminalText.Line($"-- executions of phase {split}"));
        }

        if (experiment.WarmupExecutions is not null || experiment.WarmupDuration is not null)
        {
            output.WriteLine(TerminalText.Line($"-- warm-up before each variant's first phase: {(experiment.WarmupExecutions is { } n ? $"{n} execution(s)" : $"{experiment.WarmupDuration!.Value.TotalSeconds:0.###} s")} on 1 session, no collector running, not measured"));
        }

        Script(output, experiment.Setup, catalog);
        var index = 0;
        foreach (var variant in experiment.Variants)
        {
            index++;
            output.WriteLine();
            output.WriteLine(TerminalText.Line($"-- variant {index}/{experiment.Variants.Count}: {variant.Name}"));
            var restores = new List<string>();
            foreach (var request in variant.Settings)
            {
                var setting = plan.Settings[request.Name];
                foreach (var (implied, value) in setting.Implies)
                {
                    var needed = catalog.Find(implied)!;
                    Statements(output, "read before", catalog.ReadStatements(needed));
                    Statements(output, null, catalog.ApplyStatements(needed, value));
                    restores.InsertRange(0, catalog.RestoreStatements(needed, null));
                }

                switch (setting.Level)
                {
                    case SettingLevel.Session:
                        output.WriteLine(TerminalText.Line($"-- {setting.Name} = {request.Value}: on every workload session as it starts ({string.Join("; ", catalog.ApplyStatements(setting, request.Value))}), nothing to restore"));
                        break;
                    case SettingLevel.Startup:
                        output.WriteLine(TerminalText.Line($"-- {setting.Name} = {request.Value}: fixed when the server starts, never applied; the server must already run with it"));
                        Statements(output, "read", catalog.ReadStatements(setting));
                        break;
                    default:
                        Statements(output, "read before", catalog.ReadStatements(setting));
                        Statements(output, null, catalog.ApplyStatements(setting, request.Value));
                        if (setting.Level == SettingLevel.Restart)
                        {
                            output.WriteLine("-- the embedded server restarts so the setting takes effect");
                        }

                        restores.InsertRange(0, catalog.RestoreStatements(setting, null));
                        break;
                }
            }

            foreach (var request in variant.Settings)
            {
                Statements(output, "read back", catalog.ReadStatements(plan.Settings[request.Name]).Take(1).ToList());
            }

            // Read for the variant's manifest whatever it changes (SQL Server: trace flag 834, the memory model), never applied.
            foreach (var recorded in catalog.AlwaysRecorded.Select(catalog.Find).OfType<SettingDefinition>()
                .Where(r => variant.Settings.All(s => plan.Settings[s.Name].Name != r.Name)))
            {
                Statements(output, $"recorded: {recorded.Name}, read only", catalog.ReadStatements(recorded));
            }

            Script(output, variant.Before, catalog);
            if (variant.Background is { } background)
            {
                output.WriteLine(TerminalText.Line($"-- background: {background.Sessions} session(s), each running again and again until the capture ends:"));
                output.WriteLine(background.Sql.Text.TrimEnd() + ";");
            }

            var session = plan.Captures.SessionSettings(variant);
            var args = plan.Captures.Arguments(null, Path.Combine(plan.Folder, variant.Name), []).ToList();
            args.InsertRange(2, ["--server", (experiment.Server is null ? "<the embedded server>" : "<the server>") + (session.Count == 0 ? "" : ";Options=" + string.Join(' ', session.Select(s => $"-c {s.Name}={s.Value}")))]);
            output.WriteLine(TerminalText.Line("-- capture: probe capture " + string.Join(' ', args.Select(Quote))));
            Script(output, variant.After, catalog);
            if (restores.Count > 0)
            {
                output.WriteLine("-- restore (also after a failure or Ctrl+C), each read back afterwards:");
                foreach (var statement in restores)
                {
                    output.WriteLine(Terminated(statement));
                }
            }
        }

        output.WriteLine();
        Script(output, experiment.Teardown, catalog);
        if (experiment.Variants.Count > 1)
        {
            output.WriteLine(TerminalText.Line($"-- then: probe compare {string.Join(' ', experiment.Variants.Select(v => Quote(Path.Combine(plan.Folder, v.Name))))} --label {string.Join(',', experiment.Variants.Select(v => v.Name))} -o {Quote(Path.Combine(plan.Folder, ExperimentSession.ComparisonFolder))}"));
        }
    }

    private static void Script(TextWriter output, ExperimentScript? script, ISettingCatalog catalog)
    {
        if (script is null)
        {
            return;
        }

        var batches = catalog.Split(script.Text);
        output.WriteLine(TerminalText.Line($"-- {script.Role} ({batches.Count} {catalog.BatchesAre}, from {Path.GetFileName(script.File)} line {script.Line}):"));
        foreach (var batch in batches)
        {
            output.WriteLine(catalog.AsTyped(batch));
        }
    }

    private static void Statements(TextWriter output, string? comment, IReadOnlyList<string> statements)
    {
        foreach (var statement in statements)
        {
            output.WriteLine(Terminated(statement) + (comment is null ? "" : " -- " + comment));
        }
    }

    // T-SQL statements carry their own semicolon (some a comment after it); PostgreSQL ones get one to be pasted into psql.
    private static string Terminated(string statement) =>
        statement.TrimEnd().EndsWith(';') || statement.Contains(" -- ", StringComparison.Ordinal) ? statement : statement + ";";

    private static string Quote(string arg) => arg.Length > 0 && arg.All(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '_' or '.' or '/' or ',' or ':' or '=')
        ? arg
        : "'" + arg.Replace("'", "'\\''", StringComparison.Ordinal) + "'";
}
