namespace SqlWaitProbe.Reporting.Output;

/// <summary>
/// What a report's documents are rendered from, built once: the document that HTML and Markdown render, and the typed
/// data the JSON file serialises. Both come from the same analysis in one place, so the formats cannot disagree.
/// </summary>
/// <typeparam name="TData">The JSON file's record (<c>FindingsFile</c>, <c>ComparisonFile</c>).</typeparam>
/// <param name="Document">Sections for readers.</param>
/// <param name="Data">The figures for scripts.</param>
public sealed record ReportModel<TData>(ReportDocument Document, TData Data);
