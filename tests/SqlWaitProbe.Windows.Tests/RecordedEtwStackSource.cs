using SqlWaitProbe.Windows.Etw;

namespace SqlWaitProbe.Windows.Tests;

/// <summary>
/// Stands in for <see cref="TraceLogStackSource"/>, which needs a Windows trace: samples written down as TraceLog
/// reports them (module paths, resolved or unresolved names, kernel addresses).
/// </summary>
internal sealed class RecordedEtwStackSource : IEtwStackSource
{
    private readonly List<EtwSample> _samples = new();

    public RecordedEtwStackSource(DateTime startUtc)
    {
        StartUtc = startUtc;
    }

    public DateTime StartUtc { get; }

    public IEnumerable<EtwSample> Samples() => _samples;

    /// <summary>Adds <paramref name="count"/> samples of one stack given root first, 10 ms apart from <paramref name="firstMSec"/>.</summary>
    public RecordedEtwStackSource Add(string process, int count, double firstMSec, params EtwFrame[] rootFirst) =>
        AddOf(4242, process, count, firstMSec, rootFirst);

    /// <summary>As <see cref="Add"/>, for the process <paramref name="pid"/>.</summary>
    public RecordedEtwStackSource AddOf(int pid, string process, int count, double firstMSec, params EtwFrame[] rootFirst)
    {
        var leafFirst = rootFirst.Reverse().ToArray();
        for (var i = 0; i < count; i++)
        {
            _samples.Add(new EtwSample(process, pid, 100 + i, i % 2, firstMSec + i * 10, leafFirst));
        }

        return this;
    }
}
