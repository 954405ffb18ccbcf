using SqlWaitProbe.Phases.Driver;

namespace SqlWaitProbe.Phases.Tests.Driver;

public sealed class ExecutionBufferTests
{
    [Theory]
    [InlineData(0, 0)]
    [InlineData(9, 0)]
    [InlineData(10, 1)]
    [InlineData(16_394 * 10, 16_394)]
    [InlineData(long.MaxValue, 20_000)]
    public void Executions_ended_by_a_time_are_counted_across_chunks(long timestamp, long expected)
    {
        var buffer = new ExecutionBuffer();
        for (long i = 1; i <= 20_000; i++)
        {
            buffer.Add(new ExecutionRecord(i * 10 - 5, i * 10, 1, null));
        }

        Assert.Equal(expected, buffer.CountEndedBy(timestamp));
    }
}
