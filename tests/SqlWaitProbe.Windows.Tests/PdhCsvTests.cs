using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Windows.Pdh;

namespace SqlWaitProbe.Windows.Tests;

public sealed class PdhCsvTests
{
    private static readonly DateTime T0 = new(2026, 3, 14, 9, 0, 0, 250, DateTimeKind.Utc);

    private static PdhTable Sample() => new(
        "SQLPROD01",
        PdhCounterSet.For("sqlservr"),
        [
            new PdhRow(T0, [35.5, 12.25, 0.4, 0.1, 310.0, 95.5, 20480, 0, 18342.75, 3]),
            new PdhRow(T0.AddSeconds(1), [97.125, 61.0, 1.5, 0.3, 700.0, 420.0, 20301, 12, 95012.5, 14]),
            new PdhRow(T0.AddSeconds(2), [98.0, 60.5, null, 0.2, null, null, 20299, 0, 94000, 15]),
        ]);

    [Fact]
    public void Writer_uses_the_pdh_csv_4_layout_perfmon_reads()
    {
        var writer = new StringWriter();
        PdhCsvWriter.Write(Sample(), writer);
        var lines = writer.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries);

        Assert.Equal(4, lines.Length);
        Assert.StartsWith(
            "\"(PDH-CSV 4.0) (Coordinated Universal Time)(0)\",\"\\\\SQLPROD01\\Processor Information(_Total)\\% Processor Time\",\"\\\\SQLPROD01\\Processor Information(_Total)\\% Privileged Time\",",
            lines[0]);
        Assert.Contains("\"\\\\SQLPROD01\\Process(sqlservr)\\% Processor Time\"", lines[0]);
        Assert.EndsWith("\"\\\\SQLPROD01\\System\\Processor Queue Length\"", lines[0]);
        Assert.Equal("\"03/14/2026 09:00:00.250\",\"35.5\",\"12.25\",\"0.4\",\"0.1\",\"310\",\"95.5\",\"20480\",\"0\",\"18342.75\",\"3\"", lines[1]);
        Assert.Equal("\"03/14/2026 09:00:02.250\",\"98\",\"60.5\",\" \",\"0.2\",\" \",\" \",\"20299\",\"0\",\"94000\",\"15\"", lines[3]);
        Assert.All(lines, line => Assert.Equal(11, Core.Text.Csv.Split(line).Count));
        Assert.All(lines, line => Assert.Matches("^\"[^\"]*\"(,\"[^\"]*\")*$", line));
    }

    [Fact]
    public void Written_file_reads_back_unchanged()
    {
        var table = Sample();
        var writer = new StringWriter();
        PdhCsvWriter.Write(table, writer);

        var back = PdhCsvReader.Read(new StringReader(writer.ToString()), "pdh.csv");

        Assert.Equal(table.Machine, back.Machine);
        Assert.Equal(table.Counters, back.Counters);
        Assert.Equal(table.Rows.Count, back.Rows.Count);
        for (var i = 0; i < table.Rows.Count; i++)
        {
            Assert.Equal(table.Rows[i].Utc, back.Rows[i].Utc);
            Assert.Equal(DateTimeKind.Utc, back.Rows[i].Utc.Kind);
            Assert.Equal(table.Rows[i].Values, back.Rows[i].Values);
        }
    }

    [Fact]
    public void Reader_accepts_relog_output_with_local_time_bias_crlf_and_blank_cells()
    {
        // As relog writes a counter log converted to CSV on a machine at UTC-7 (bias 420 minutes):
        // CRLF line ends, a blank first sample for rate counters, no milliseconds-free rows.
        var relog =
            "\"(PDH-CSV 4.0) (Pacific Daylight Time)(420)\",\"\\\\DBHOST\\Processor(_Total)\\% Processor Time\",\"\\\\DBHOST\\System\\Context Switches/sec\"\r\n" +
            "\"03/14/2026 02:00:00.117\",\" \",\" \"\r\n" +
            "\"03/14/2026 02:00:01.120\",\"41.863212585449219\",\"22731.402810462952\"\r\n" +
            "\"03/14/2026 02:00:02.121\",\"\",\"21000\"\r\n";

        var table = PdhCsvReader.Read(new StringReader(relog), "relog.csv");

        Assert.Equal("DBHOST", table.Machine);
        Assert.Equal([@"\Processor(_Total)\% Processor Time", PdhCounterSet.ContextSwitches], table.Counters);
        Assert.Equal(3, table.Rows.Count);
        Assert.Equal(new DateTime(2026, 3, 14, 9, 0, 0, 117, DateTimeKind.Utc), table.Rows[0].Utc);
        Assert.Equal([null, null], table.Rows[0].Values);
        Assert.Equal(41.863212585449219, table.Rows[1].Values[0]);
        Assert.Equal([null, 21000.0], table.Rows[2].Values);
    }

    [Theory]
    [InlineData("", "empty")]
    [InlineData("\"utc\",\"value\"\n", "PDH-CSV 4.0")]
    [InlineData("\"(PDH-CSV 4.0) (Coordinated Universal Time)(0)\",\"\\\\H\\Memory\\Available MBytes\"\n\"yesterday\",\"1\"\n", "MM/dd/yyyy")]
    [InlineData("\"(PDH-CSV 4.0) (Coordinated Universal Time)(0)\",\"\\\\H\\Memory\\Available MBytes\"\n\"03/14/2026 09:00:00.000\",\"lots\"\n", "not a number")]
    public void Reader_rejects_what_is_not_a_pdh_csv_file_with_one_line(string text, string expected)
    {
        var error = Assert.Throws<BadInputException>(() => PdhCsvReader.Read(new StringReader(text), "bad.csv"));
        Assert.Contains(expected, error.OneLine);
        Assert.StartsWith("bad.csv:", error.OneLine);
    }
}
