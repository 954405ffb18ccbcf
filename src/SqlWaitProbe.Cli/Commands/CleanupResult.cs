using SqlWaitProbe.Core.Cleanup;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>What <c>probe cleanup</c> did with one leftover run: nothing yet (dry run), what removing it did, or why it failed.</summary>
/// <param name="Leftover">The leftover run as found.</param>
/// <param name="Outcome">What removing it did, one line; null in a dry run or when it failed.</param>
/// <param name="Error">Why removing it failed; null otherwise.</param>
internal sealed record CleanupResult(Leftover Leftover, string? Outcome, string? Error);
