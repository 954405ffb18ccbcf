using System.Text;

namespace SqlWaitProbe.Cli.Infrastructure;

/// <summary>Interactive prompts on the terminal: a password without echo, and yes/no confirmations.</summary>
public static class ConsolePrompt
{
    /// <summary>Reads a line without echoing it (for passwords).</summary>
    public static string ReadSecret(string prompt)
    {
        Console.Error.Write(prompt);
        var sb = new StringBuilder();
        while (true)
        {
            var key = Console.ReadKey(intercept: true);
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

        Console.Error.WriteLine();
        return sb.ToString();
    }

    /// <summary>Asks a yes/no question on the terminal; false unless the answer starts with y.</summary>
    public static bool Confirm(string question)
    {
        Console.Error.Write(question + " [y/N] ");
        var answer = Console.ReadLine();
        return answer is not null && answer.TrimStart().StartsWith('y');
    }
}
