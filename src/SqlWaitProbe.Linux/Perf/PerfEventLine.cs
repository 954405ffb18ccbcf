using System.Runtime.CompilerServices;

namespace SqlWaitProbe.Linux.Perf;

/// <summary>Splits a perf event line into command, pid and tid: the command is everything before the first all-digit word.</summary>
internal static class PerfEventLine
{
    /// <summary>
    /// Finds the first word of digits (optionally <c>PID/TID</c>) followed by a space. The command before it may contain
    /// spaces. Without a slash the number is the thread id and the pid is empty. <paramref name="end"/> is the index after it.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static bool TrySplit(ReadOnlySpan<char> line, out ReadOnlySpan<char> comm, out ReadOnlySpan<char> pid, out ReadOnlySpan<char> tid, out int end)
    {
        var wordStart = 0;
        var allDigits = false;
        var lastWasSpace = false;
        var slash = -1;
        for (var i = 0; i < line.Length; i++)
        {
            var c = line[i];
            if (c == ' ')
            {
                if (allDigits && !lastWasSpace)
                {
                    if (slash >= 0)
                    {
                        pid = line[wordStart..slash];
                        tid = line[(slash + 1)..i];
                    }
                    else
                    {
                        pid = default;
                        tid = line[wordStart..i];
                    }

                    comm = line[..(wordStart - 1)].Trim();
                    end = i + 1;
                    return true;
                }

                wordStart = i + 1;
                allDigits = true;
            }
            else if (c == '/')
            {
                if (allDigits)
                {
                    slash = i;
                }
            }
            else if (!char.IsAsciiDigit(c))
            {
                allDigits = false;
                slash = -1;
            }

            lastWasSpace = c == ' ';
        }

        comm = pid = tid = default;
        end = 0;
        return false;
    }
}
