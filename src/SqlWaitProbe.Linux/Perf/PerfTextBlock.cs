namespace SqlWaitProbe.Linux.Perf;

/// <summary>A run of whole perf events (cut after a blank line) and the file line it starts at.</summary>
/// <param name="Chars">The text; only the first <paramref name="Length"/> characters are used.</param>
/// <param name="Length">Characters in use.</param>
/// <param name="FirstLine">The 1-based file line number of the block's first line.</param>
internal readonly record struct PerfTextBlock(char[] Chars, int Length, long FirstLine);
