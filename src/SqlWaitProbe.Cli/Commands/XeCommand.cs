using System.CommandLine;
using System.Globalization;
using System.Text.Json;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.SqlServer.Xe;

namespace SqlWaitProbe.Cli.Commands;

/// <summary><c>probe xe read FILE.xel</c>: a user's own extended-event files as CSV or JSON, read without a server.</summary>
public static class XeCommand
{
    public static Command Create(IProbeConsole console)
    {
        var file = new Argument<string>("file") { Description = "An extended-event file (.xel) written by an event_file target" };
        var format = new Option<string>("--format") { Description = "csv (one row per event, one column per field and action) or json (one object per event)", DefaultValueFactory = _ => "csv" };
        format.AcceptOnlyFromAmong("csv", "json");
        var output = new Option<string?>("--output", "-o") { Description = "The file to write (default: stdout)" };
        var force = StacksArguments.Force();
        var read = new Command("read", "Print every event of a .xel file with its UTC time, fields and actions; no server needed.");
        read.Arguments.Add(file);
        read.Options.Add(format);
        read.Options.Add(output);
        read.Options.Add(force);
        read.SetAction((parse, ct) => CommandRunner.RunAsync(console, parse, ct, async token =>
        {
            var path = parse.GetValue(file)!;
            InputFile.Require(path);
            var json = parse.GetValue(format) == "json";

            // Reading twice keeps memory flat: the first pass learns the columns, the second writes the rows.
            (string[] Fields, string[] Actions)? columns = json ? null : Columns(path, token);
            await StacksOutput.WriteTextAsync(console, parse.GetValue(output), parse.GetValue(force), writer =>
            {
                if (json)
                {
                    WriteJson(path, writer, token);
                }
                else
                {
                    WriteCsv(path, columns!.Value, writer, token);
                }
            });
            return 0;
        }, checkOutput: () => StacksOutput.Check(parse.GetValue(output), parse.GetValue(force), parse.GetValue(file))));
        var command = new Command("xe", "Work with SQL Server extended-event files.");
        command.Subcommands.Add(read);
        return command;
    }

    private static (string[] Fields, string[] Actions) Columns(string path, CancellationToken token)
    {
        var fields = new SortedSet<string>(StringComparer.Ordinal);
        var actions = new SortedSet<string>(StringComparer.Ordinal);
        foreach (var e in XelFileReader.Read(path))
        {
            token.ThrowIfCancellationRequested();
            fields.UnionWith(e.Fields.Keys);
            actions.UnionWith(e.Actions.Keys);
        }

        return ([.. fields], [.. actions]);
    }

    private static void WriteCsv(string path, (string[] Fields, string[] Actions) columns, TextWriter writer, CancellationToken token)
    {
        writer.Write(Csv.Line([.. new[] { "utc", "event" }.Concat(columns.Fields).Concat(columns.Actions.Select(a => "action." + a))]) + "\n");
        foreach (var e in XelFileReader.Read(path))
        {
            token.ThrowIfCancellationRequested();
            var cells = new List<string?> { Utc(e.Utc), e.Name };
            cells.AddRange(columns.Fields.Select(f => e.Fields.TryGetValue(f, out var v) ? Text(v) : null));
            cells.AddRange(columns.Actions.Select(a => e.Actions.TryGetValue(a, out var v) ? Text(v) : null));
            writer.Write(Csv.Line([.. cells]) + "\n");
        }
    }

    private static void WriteJson(string path, TextWriter writer, CancellationToken token)
    {
        using var buffer = new MemoryStream();
        writer.Write('[');
        var first = true;
        foreach (var e in XelFileReader.Read(path))
        {
            token.ThrowIfCancellationRequested();
            buffer.SetLength(0);
            using (var json = new Utf8JsonWriter(buffer))
            {
                json.WriteStartObject();
                json.WriteString("utc", Utc(e.Utc));
                json.WriteString("event", e.Name);
                Values(json, "fields", e.Fields);
                Values(json, "actions", e.Actions);
                json.WriteEndObject();
            }

            writer.Write(first ? "\n" : ",\n");
            writer.Write(System.Text.Encoding.UTF8.GetString(buffer.GetBuffer(), 0, (int)buffer.Length));
            first = false;
        }

        writer.Write("\n]\n");
    }

    private static void Values(Utf8JsonWriter json, string name, IReadOnlyDictionary<string, object?> values)
    {
        json.WriteStartObject(name);
        foreach (var (key, value) in values.OrderBy(v => v.Key, StringComparer.Ordinal))
        {
            switch (value)
            {
                case null:
                    json.WriteNull(key);
                    break;
                case bool b:
                    json.WriteBoolean(key, b);
                    break;
                case double d when !double.IsFinite(d):
                    json.WriteString(key, Text(d));
                    break;
                case float f when !float.IsFinite(f):
                    json.WriteString(key, Text(f));
                    break;
                case sbyte or byte or short or ushort or int or uint or long or ulong or float or double or decimal:
                    json.WritePropertyName(key);
                    json.WriteRawValue(Text(value)!);
                    break;
                default:
                    json.WriteString(key, Text(value));
                    break;
            }
        }

        json.WriteEndObject();
    }

    private static string Utc(DateTime time) => time.ToUniversalTime().ToString("yyyy-MM-dd'T'HH:mm:ss.fffffff'Z'", CultureInfo.InvariantCulture);

    private static string? Text(object? value) => value switch
    {
        null => null,
        byte[] bytes => "0x" + Convert.ToHexString(bytes),
        DateTime time => Utc(time),
        DateTimeOffset offset => Utc(offset.UtcDateTime),
        IFormattable formattable => formattable.ToString(null, CultureInfo.InvariantCulture),
        _ => value.ToString(),
    };
}
