using System.Globalization;
using System.Text;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>Runs <c>probe</c> in-process with stdout and stderr captured.</summary>
internal static class StacksCli
{
    private static readonly SemaphoreSlim Gate = new(1, 1);

    public static async Task<(int Exit, string Out, string Err)> RunAsync(params string[] args)
    {
        await Gate.WaitAsync();
        var (oldOut, oldErr) = (Console.Out, Console.Error);
        var (stdout, stderr) = (new StringWriter(CultureInfo.InvariantCulture), new StringWriter(CultureInfo.InvariantCulture));
        try
        {
            Console.SetOut(stdout);
            Console.SetError(stderr);
            var exit = await Program.Main(args);
            return (exit, stdout.ToString(), stderr.ToString());
        }
        finally
        {
            Console.SetOut(oldOut);
            Console.SetError(oldErr);
            Gate.Release();
        }
    }

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
