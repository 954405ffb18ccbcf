namespace SqlWaitProbe.Reporting.Output;

/// <summary>What a <see cref="ReportBlock"/> holds.</summary>
public enum ReportBlockKind
{
    /// <summary>A paragraph of text.</summary>
    Paragraph = 0,
    /// <summary>A bulleted list.</summary>
    List = 1,
    /// <summary>A table with a header row.</summary>
    Table = 2,
    /// <summary>A finding: severity, title, id and its evidence.</summary>
    Finding = 3,
}
