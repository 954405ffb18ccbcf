namespace SqlWaitProbe.Analysis.Findings;

/// <summary>
/// Base of a finding rule: findings are stamped with the rule's id, so a rule cannot emit another's; a finding needs its
/// next step to be made at all.
/// </summary>
/// <typeparam name="TInput">What the rule reads.</typeparam>
public abstract class FindingRule<TInput> : IFindingRule<TInput>
{
    /// <inheritdoc/>
    public abstract string Id { get; }

    /// <inheritdoc/>
    public abstract IEnumerable<Finding> Evaluate(TInput input);

    /// <inheritdoc/>
    public virtual IReadOnlyCollection<string> Subsumes { get; } = [];

    /// <summary>A finding of this rule.</summary>
    protected Finding Create(string severity, string? phase, string title, IReadOnlyList<string> evidence, string next, bool dataQuality = false)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(next);
        return new Finding(Id, severity, title, evidence, dataQuality) { Phase = phase, Next = next };
    }
}
