using SqlWaitProbe.SqlServer.Dmv;

namespace SqlWaitProbe.SqlServer.Tests;

/// <summary>Values printed in a dry run cannot be misread or split a batch when pasted into sqlcmd.</summary>
public sealed class DryRunLiteralTests
{
    [Fact]
    public void A_value_holding_a_GO_line_stays_on_one_line_and_parses_as_one_expression()
    {
        var literal = SessionFilter.Literal("app\nGO\nDROP TABLE t; --'");

        Assert.DoesNotContain('\n', literal);
        Assert.Equal("(N'app' + NCHAR(10) + N'GO' + NCHAR(10) + N'DROP TABLE t; --''')", literal);
        var batch = $"SELECT 1 WHERE N'x' = {literal};";
        TSqlAssert.Parses(batch, "filter with a GO line");
        // sqlcmd splits on a line that is GO alone; there is none.
        Assert.DoesNotContain(batch.Split('\n'), l => l.Trim().Equals("GO", StringComparison.OrdinalIgnoreCase));
    }

    [Fact]
    public void A_plain_value_is_a_plain_literal() => Assert.Equal("N'probe''s app'", SessionFilter.Literal("probe's app"));
}
