namespace SqlWaitProbe.Etl.Format;

/// <summary>Where a record is, kept cheaply (the text is built only for an error).</summary>
/// <param name="BufferAt">File offset of its buffer.</param>
/// <param name="Compressed">Whether that buffer is compressed.</param>
/// <param name="ContentOffset">Its offset in the buffer's content.</param>
internal readonly record struct EtlRecordPosition(long BufferAt, bool Compressed, int ContentOffset)
{
    /// <summary>The place in words, as <see cref="EtlLocation.Record"/> gives it.</summary>
    public string Location => EtlLocation.Record(BufferAt, Compressed, ContentOffset);
}
