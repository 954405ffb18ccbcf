namespace SqlWaitProbe.Analysis.Statements;

/// <summary>An operator of a plan that matters: a spill, parallelism, a grant warning, an estimate far off.</summary>
/// <param name="Kind"><c>spill</c>, <c>parallel</c>, <c>grant</c> or <c>estimate</c>.</param>
/// <param name="Operator">The operator as the plan names it (<c>Sort</c>, <c>Hash</c>, <c>Gather</c>…).</param>
/// <param name="Detail">What about it, with units.</param>
public sealed record PlanNote(string Kind, string Operator, string Detail)
{
    /// <summary>The note as one line: <c>Sort: external merge, 1,552 kB on disk</c>.</summary>
    public override string ToString() => $"{Operator}: {Detail}";
}
