using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Linux.Perf;

/// <summary>Lines of perf script text, numbered as in the file.</summary>
internal interface IPerfLineSource : IDisposable
{
    /// <summary>The 1-based number of the line last returned.</summary>
    long LineNumber { get; }

    /// <summary>Returns the next line without its line break; false at the end.</summary>
    bool TryReadLine(out ReadOnlySpan<char> line);

    /// <summary>A <see cref="BadInputException"/> about the current line.</summary>
    BadInputException Problem(string message);
}
