using SqlWaitProbe.Postgres.Engine;

namespace SqlWaitProbe.Postgres.Tests.Engine;

/// <summary>A filter value printed in the dry run's comments cannot end the comment and put SQL on a line of its own.</summary>
public sealed class PostgresDryRunLiteralTests
{
    [Theory]
    [InlineData("app\nDROP TABLE t;", "E'app\\nDROP TABLE t;'")]
    [InlineData("it's", "E'it\\'s'")]
    [InlineData("a\\b\r", "E'a\\\\b\\r'")]
    public void Values_print_as_escape_string_literals_on_one_line(string value, string printed)
    {
        var literal = PostgresDryRun.Literal(value);

        Assert.Equal(printed, literal);
        Assert.DoesNotContain('\n', literal);
    }
}
