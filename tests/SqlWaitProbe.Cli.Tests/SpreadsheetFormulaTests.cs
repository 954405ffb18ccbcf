using System.Text;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// Every CSV the probe writes neutralises cells a spreadsheet would run as formulas (OWASP: text starting with
/// <c>= + - @</c>, tab or CR gets a leading <c>'</c>): <c>xe read</c> of a statement <c>=cmd|'/C calc'!A0</c> wrote it
/// as an unquoted formula cell.
/// </summary>
public sealed class SpreadsheetFormulaTests
{
    [Fact]
    public async Task Xe_read_writes_a_statement_that_looks_like_a_formula_as_text()
    {
        // A real .xel with one statement of the same length overwritten in place (UTF-16, as the file stores it).
        var bytes = File.ReadAllBytes(TestData.Path("xel/sqltoolsservice__TestXel_0.xel"));
        var original = Encoding.Unicode.GetBytes("exec sp_unprepare 3441");
        var formula = Encoding.Unicode.GetBytes("=cmd|'/C calc'!A0".PadRight(22));
        var at = bytes.AsSpan().IndexOf(original);
        Assert.True(at > 0, "the statement is in the file");
        formula.CopyTo(bytes, at);
        var folder = TestData.TempFolder("probe-formula");
        var xel = Path.Combine(folder, "x.xel");
        File.WriteAllBytes(xel, bytes);
        var csv = Path.Combine(folder, "x.csv");

        var (exit, _, stderr) = await InProcessProbe.RunAsync("xe", "read", xel, "-o", csv);

        Assert.True(exit == 0, stderr);
        var rows = Read(csv);
        var header = rows[0];
        var statements = rows.Skip(1).Select(r => r[Array.IndexOf(header, "statement")]).ToList();
        Assert.Contains("'=cmd|'/C calc'!A0".PadRight(23), statements);
        Assert.DoesNotContain(statements, s => s.StartsWith('='));

        // The real file's SQL comments ("-- network protocol: TCP/IP") are text too; no cell starts a formula.
        Assert.Contains(rows.Skip(1), r => r[Array.IndexOf(header, "options_text")].StartsWith("'-- network protocol", StringComparison.Ordinal));
        Assert.All(rows.SelectMany(r => r), cell => Assert.False(LooksLikeFormula(cell), cell));
    }

    [Fact]
    public async Task Stacks_modules_csv_writes_a_module_that_looks_like_a_formula_as_text_and_shares_as_numbers()
    {
        var folder = TestData.TempFolder("probe-formula");
        var folded = Path.Combine(folder, "in.folded");
        File.WriteAllText(folded, "postgres;=HYPERLINK(\"http://x\")!f;@evil!g 3\npostgres;postgres!main 1\n");

        var (exit, stdout, stderr) = await InProcessProbe.RunAsync("stacks", "modules", folded, "--format", "csv");

        Assert.True(exit == 0, stderr);
        var rows = Read(stdout, fromText: true);
        Assert.Contains(rows, r => r[1] == "'=HYPERLINK(\"http://x\")");
        Assert.Contains(rows, r => r[1] == "'@evil");
        Assert.All(rows.SelectMany(r => r), cell => Assert.False(LooksLikeFormula(cell), cell));
    }

    private static bool LooksLikeFormula(string cell) =>
        cell.Length > 0 && "=+-@\t\r".Contains(cell[0]) && !double.TryParse(cell, System.Globalization.CultureInfo.InvariantCulture, out _);

    private static List<string[]> Read(string csvOrText, bool fromText = false)
    {
        using var reader = fromText ? new StringReader(csvOrText) : new StringReader(File.ReadAllText(csvOrText));
        using var parser = new Microsoft.VisualBasic.FileIO.TextFieldParser(reader) { HasFieldsEnclosedInQuotes = true, TrimWhiteSpace = false };
        parser.SetDelimiters(",");
        var rows = new List<string[]>();
        while (!parser.EndOfData)
        {
            rows.Add(parser.ReadFields()!);
        }

        return rows;
    }
}
