namespace SqlWaitProbe.Windows.Tests;

/// <summary>Collects progress messages synchronously, in order.</summary>
internal sealed class ListProgress : IProgress<string>
{
    private readonly List<string> _messages = new();

    public IReadOnlyList<string> Messages
    {
        get
        {
            lock (_messages)
            {
                return _messages.ToArray();
            }
        }
    }

    public void Report(string value)
    {
        lock (_messages)
        {
            _messages.Add(value);
        }
    }
}
