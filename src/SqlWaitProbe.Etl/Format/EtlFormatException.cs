namespace SqlWaitProbe.Etl.Format;

/// <summary>
/// The trace is not what the ETL format allows at one place. Raised inside the reader, which turns it into the
/// one-line bad-input error naming the file; <see cref="Location"/> says where, in the words a user can check
/// with a hex viewer (a byte offset in the file, and for a compressed buffer the offset after decompression).
/// </summary>
internal sealed class EtlFormatException(string location, string problem) : Exception($"{location}: {problem}")
{
    /// <summary>Where the problem is, e.g. <c>at byte 4096</c>.</summary>
    public string Location { get; } = location;

    /// <summary>What is wrong there.</summary>
    public string Problem { get; } = problem;
}
