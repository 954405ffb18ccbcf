using System.Globalization;

namespace SqlWaitProbe.Etl.Format;

/// <summary>How the reader names a place in a trace, the same way in every error.</summary>
internal static class EtlLocation
{
    /// <summary><c>at byte N</c>: an offset in the file.</summary>
    public static string AtByte(long offset) => string.Create(CultureInfo.InvariantCulture, $"at byte {offset}");

    /// <summary>
    /// A record inside a buffer: its file byte when the buffer is stored plain, else the buffer's byte and the
    /// record's offset in the decompressed content (a compressed buffer has no file byte for each record).
    /// </summary>
    public static string Record(long bufferAt, bool compressed, int contentOffset) => compressed
        ? string.Create(CultureInfo.InvariantCulture, $"at byte {bufferAt} (compressed buffer), offset {contentOffset} of its content")
        : AtByte(bufferAt + EtlBufferHeader.Size + contentOffset);
}
