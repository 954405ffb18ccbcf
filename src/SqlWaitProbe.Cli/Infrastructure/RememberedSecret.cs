namespace SqlWaitProbe.Cli.Infrastructure;

/// <summary>
/// A password asked once on the terminal and given again, from memory only, to every later engine of the same command:
/// a watch opens a new window (a new engine) every <c>--keep</c> for hours, long after anyone sits at the terminal, so
/// each must get the password typed at the start without asking again. It is never written anywhere.
/// </summary>
internal sealed class RememberedSecret
{
    private readonly Func<string, string>? _ask;
    private readonly Dictionary<string, string> _answers = new(StringComparer.Ordinal);
    private readonly Lock _gate = new();

    /// <summary>Remembers what <paramref name="ask"/> answers (null: there is no terminal, and nothing is asked).</summary>
    public RememberedSecret(Func<string, string>? ask) => _ask = ask;

    /// <summary>How many times the terminal was asked.</summary>
    public int Asked { get; private set; }

    /// <summary>The reader to lend engines: the first answer to each prompt (e.g. one user's password) is given again.</summary>
    public Func<string, string>? Read => _ask is null ? null : prompt =>
    {
        lock (_gate)
        {
            if (!_answers.TryGetValue(prompt, out var answer))
            {
                answer = _ask(prompt);
                Asked++;
                _answers[prompt] = answer;
            }

            return answer;
        }
    };
}
