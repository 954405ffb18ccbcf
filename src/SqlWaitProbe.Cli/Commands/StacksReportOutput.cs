using System.Text.Json;
using Spectre.Console;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>Where a <see cref="StacksReportCommand"/> verb writes: stdout, in the <c>--format</c> the user chose.</summary>
internal sealed class StacksReportOutput
{
    private readonly IProbeConsole _console;
    private IAnsiConsole? _ansi;

    /// <summary>Creates the output for <paramref name="format"/> on <paramref name="console"/>'s stdout.</summary>
    public StacksReportOutput(IProbeConsole console, string format)
    {
        _console = console;
        Format = format;
    }

    /// <summary>The chosen format: <c>table</c>, <c>json</c> or <c>csv</c>.</summary>
    public string Format { get; }

    /// <summary>Whether the user asked for JSON.</summary>
    public bool IsJson => Format == "json";

    /// <summary>A Spectre console on stdout for tables (plain and wide when stdout is redirected).</summary>
    public IAnsiConsole Ansi => _ansi ??= StacksConsole.Create(_console);

    /// <summary>Writes <paramref name="value"/> as one JSON document in the probe's JSON conventions (camelCase), then a line end.</summary>
    public void Json(object value) => _console.Out.Write(JsonSerializer.Serialize(value, ProbeJson.Options) + "\n");

    /// <summary>Writes one CSV line of <paramref name="fields"/> (quoted where needed) and a line end.</summary>
    public void CsvLine(params string?[] fields) => _console.Out.Write(Csv.Line(fields) + "\n");
}
