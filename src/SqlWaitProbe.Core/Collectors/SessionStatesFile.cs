using System.Globalization;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.Core.Collectors;

/// <summary>
/// Writes a phase's <c>session_states.csv</c>: each session's stretches in one state, in ms from the phase start.
/// Both engines' attach samplers write it, so its layout is kept in one place.
/// </summary>
public static class SessionStatesFile
{
    /// <summary>Writes the stretches, by session then start, atomically.</summary>
    public static void Write(PhaseContext phase, IEnumerable<(int Session, string State, DateTime From, DateTime To)> stretches)
    {
        ArgumentNullException.ThrowIfNull(phase);
        Files.AtomicFile.WriteText(phase.PathFor(BundlePaths.SessionStates(phase.Name)), writer =>
        {
            writer.Write(BundleColumns.Header(BundleColumns.SessionStates.All) + "\n");
            foreach (var (session, state, from, to) in stretches.OrderBy(s => s.Session).ThenBy(s => s.From))
            {
                writer.Write(Csv.Line(
                    session.ToString(CultureInfo.InvariantCulture), state,
                    (from - phase.StartUtc).TotalMilliseconds.ToString("0.###", CultureInfo.InvariantCulture),
                    (to - phase.StartUtc).TotalMilliseconds.ToString("0.###", CultureInfo.InvariantCulture)) + "\n");
            }
        });
    }
}
