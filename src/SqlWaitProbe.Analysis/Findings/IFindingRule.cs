namespace SqlWaitProbe.Analysis.Findings;

/// <summary>
/// One rule that reads an analysis (<see cref="AnalysisResult"/>, or a comparison) and says what it found: an id,
/// its thresholds as named constants, and for each finding the figures it rests on and the next step.
/// </summary>
/// <typeparam name="TInput">What the rule reads.</typeparam>
public interface IFindingRule<in TInput>
{
    /// <summary>The id every finding of this rule carries (findings.json <c>id</c>).</summary>
    string Id { get; }

    /// <summary>
    /// Ids of rules whose findings about the same phase this rule's finding explains: one cause, one finding. The
    /// evaluator drops them when this rule fires for that phase; this finding carries their figures.
    /// </summary>
    IReadOnlyCollection<string> Subsumes { get; }

    /// <summary>The rule's findings for <paramref name="input"/>, none when it does not fire.</summary>
    IEnumerable<Finding> Evaluate(TInput input);
}
