using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Core.Tests.Errors;

public sealed class EnvironmentProblemTests
{
    [Theory]
    [InlineData("cannot connect to db1: Failed to connect to 127.0.0.1:1", "cannot connect to db1: Failed to connect to 127.0.0.1:1. Check that the server runs.")]
    [InlineData("Cannot reach SQL Server 'db1' (error 0).", "Cannot reach SQL Server 'db1' (error 0). Check that the server runs.")]
    [InlineData("perf is not permitted:", "perf is not permitted: Check that the server runs.")]
    public void The_problem_and_its_remedy_read_as_two_sentences_on_one_line(string problem, string expected)
    {
        Assert.Equal(expected, new EnvironmentProblemException(problem, "Check that the server runs.").OneLine);
    }

    [Fact]
    public void A_driver_message_over_several_lines_stays_one_line()
    {
        var line = new EnvironmentProblemException("connection refused\n  at Npgsql.Connect()", "Start the server.").OneLine;
        Assert.DoesNotContain('\n', line);
        Assert.EndsWith("Start the server.", line);
    }
}
