using System.Globalization;
using System.Text;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>Helpers for the stacks command tests.</summary>
internal static class StacksCli
{
    /// <summary>Parses folded text into stack → weight.</summary>
    public static Dictionary<string, long> ParseFolded(string text)
    {
        var result = new Dictionary<string, long>(StringComparer.Ordinal);
        foreach (var line in text.Split('\n', StringSplitOptions.RemoveEmptyEntries))
        {
            var space = line.LastIndexOf(' ');
            result[line[..space]] = result.GetValueOrDefault(line[..space]) + long.Parse(line[(space + 1)..], CultureInfo.InvariantCulture);
        }

        return result;
    }

    public static string Describe(IReadOnlyDictionary<string, long> d) =>
        string.Join('\n', d.OrderBy(e => e.Key, StringComparer.Ordinal).Select(e => e.Key + " " + e.Value.ToString(CultureInfo.InvariantCulture)));

    public static string Utf8(byte[] bytes) => Encoding.UTF8.GetString(bytes);
}
