using System.Text;

namespace SqlWaitProbe.Cli.Infrastructure;

/// <summary>Interactive prompts on the terminal: a password without echo, and yes/no confirmations.</summary>
public static class ConsolePrompt
{
    /// <summary>Reads a line from <paramref name="console"/> without echoing it (for passwords).</summary>
    public static string ReadSecret(IProbeConsole console, string prompt)
    {
        console.Error.Write(prompt);
        var sb = new StringBuilder();
        while (true)
        {
            var key = console.ReadKey(intercept: true);
            if (key.Key == ConsoleKey.Enter)
            {
                break;
            }

            if (key.Key == ConsoleKey.Backspace)
            {
                if (sb.Length > 0)
                {
                    sb.Length--;
                }

                continue;
            }

            if (!char.IsControl(key.KeyChar))
            {
                sb.Append(key.KeyChar);
            }
        }

        console.Error.WriteLine();
        return sb.ToString();
    }

    /// <summary>Asks a yes/no question on <paramref name="console"/>; false unless the answer starts with y.</summary>
    public static bool Confirm(IProbeConsole console, string question)
    {
        console.Error.Write(question + " [y/N] ");
        var answer = console.ReadLine();
        return answer is not null && answer.TrimStart().StartsWith('y');
    }
}
