using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Core.Tests.Text;

/// <summary>
/// The one CSV cell writer: text a spreadsheet would run as a formula is written with a leading <c>'</c> (OWASP),
/// numbers stay numbers, and the probe reads back exactly what it wrote.
/// </summary>
public sealed class CsvTests
{
    [Theory]
    [InlineData("=cmd|'/C calc'!A0", "'=cmd|'/C calc'!A0")]
    [InlineData("+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0")]
    [InlineData("-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0")]
    [InlineData("@SUM(1+9)*cmd|' /C calc'!A0", "'@SUM(1+9)*cmd|' /C calc'!A0")]
    [InlineData("\t=1", "'\t=1")]
    [InlineData("\r=1", "\"'\r=1\"")]
    [InlineData("-- network protocol: TCP/IP", "'-- network protocol: TCP/IP")]
    [InlineData("'=already quoted", "''=already quoted")]
    [InlineData("=a,b", "\"'=a,b\"")]
    [InlineData("-5", "-5")]
    [InlineData("-1.5e-3", "-1.5e-3")]
    [InlineData("+42", "+42")]
    [InlineData("-0.001", "-0.001")]
    [InlineData("LWLock:BufferContent", "LWLock:BufferContent")]
    [InlineData("it's", "it's")]
    [InlineData("'quoted'", "'quoted'")]
    [InlineData("", "")]
    public void A_cell_that_starts_like_a_formula_is_neutralised_and_numbers_stay_numbers(string cell, string written)
    {
        Assert.Equal(written, Csv.Escape(cell));
    }

    [Fact]
    public void Every_cell_reads_back_as_it_was_written()
    {
        string[] cells = ["=cmd|'/C calc'!A0", "-5", "-1.5e-3", "'=x", "''=y", "'plain", "@user", "+", "-", "=", "a,b", "say \"hi\"", "-- comment", "'", "''"];

        var read = Csv.Split(Csv.Line(cells));

        Assert.Equal(cells, read);
    }

    [Fact]
    public void Negative_numbers_written_by_number_formatting_stay_unquoted()
    {
        var line = Csv.Line("session", Csv.Number(-12.5), Csv.Number(-3L));

        Assert.Equal("session,-12.5,-3", line);
    }
}
