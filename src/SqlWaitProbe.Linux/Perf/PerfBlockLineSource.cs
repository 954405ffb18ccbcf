using System.Runtime.CompilerServices;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Linux.Perf;

/// <summary>The lines of one <see cref="PerfTextBlock"/>, numbered as in the file.</summary>
internal sealed class PerfBlockLineSource(PerfTextBlock block, string file) : IPerfLineSource
{
    private int _position;

    /// <inheritdoc />
    public long LineNumber { get; private set; } = block.FirstLine - 1;

    /// <inheritdoc />
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public bool TryReadLine(out ReadOnlySpan<char> line)
    {
        var pending = block.Chars.AsSpan(_position, block.Length - _position);
        if (pending.IsEmpty)
        {
            line = default;
            return false;
        }

        var newline = pending.IndexOf('\n');
        line = newline < 0 ? pending : pending[..newline];
        _position += newline < 0 ? pending.Length : newline + 1;
        LineNumber++;
        return true;
    }

    /// <inheritdoc />
    public BadInputException Problem(string message) => new(message, file, LineNumber);

    /// <inheritdoc />
    public void Dispose()
    {
    }
}
