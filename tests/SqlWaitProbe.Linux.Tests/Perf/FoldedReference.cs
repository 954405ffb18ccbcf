using System.Globalization;

namespace SqlWaitProbe.Linux.Tests.Perf;

/// <summary>Reads a reference folded file into stack → weight.</summary>
internal static class FoldedReference
{
    public static Dictionary<string, long> Read(string path)
    {
        var result = new Dictionary<string, long>(StringComparer.Ordinal);
        foreach (var line in File.ReadLines(path))
        {
            if (line.Length == 0)
            {
                continue;
            }

            var space = line.LastIndexOf(' ');
            var stack = line[..space];
            result[stack] = result.GetValueOrDefault(stack) + long.Parse(line[(space + 1)..], CultureInfo.InvariantCulture);
        }

        return result;
    }

    /// <summary>A readable list of differences, empty when equal.</summary>
    public static string Differences(IReadOnlyDictionary<string, long> expected, IReadOnlyDictionary<string, long> actual)
    {
        var lines = new List<string>();
        foreach (var (stack, weight) in expected)
        {
            if (!actual.TryGetValue(stack, out var got) || got != weight)
            {
                lines.Add($"expected {weight}, got {(actual.TryGetValue(stack, out var g) ? g.ToString(CultureInfo.InvariantCulture) : "none")}: {stack}");
            }
        }

        foreach (var (stack, weight) in actual)
        {
            if (!expected.ContainsKey(stack))
            {
                lines.Add($"unexpected {weight}: {stack}");
            }
        }

        return string.Join('\n', lines.Take(10));
    }
}
