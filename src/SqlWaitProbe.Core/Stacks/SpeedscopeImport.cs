namespace SqlWaitProbe.Core.Stacks;

/// <summary>A speedscope file read as stacks: one process per speedscope profile, weights in <see cref="Unit"/>.</summary>
/// <param name="Profile">The stacks; each speedscope profile's name is the process.</param>
/// <param name="Unit">
/// The file's unit (<c>none</c> for sample counts, <c>nanoseconds</c> … <c>seconds</c>, <c>bytes</c>), one step finer
/// per factor 1000 when fractional time values had to be made whole.
/// </param>
public sealed record SpeedscopeImport(StackProfile Profile, string Unit);
