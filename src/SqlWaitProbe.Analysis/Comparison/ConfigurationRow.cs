namespace SqlWaitProbe.Analysis.Comparison;

/// <summary>One setting whose value differs between the compared captures.</summary>
/// <param name="Setting">Setting name as recorded, e.g. <c>memory model</c>, <c>postgres.work_mem</c>, <c>--threads</c>.</param>
/// <param name="Values">One value per capture; null where the capture did not record it.</param>
/// <param name="Source">Where it was recorded: <c>manifest.json configuration</c> or <c>manifest.json options</c>.</param>
public sealed record ConfigurationRow(string Setting, IReadOnlyList<string?> Values, string Source);
