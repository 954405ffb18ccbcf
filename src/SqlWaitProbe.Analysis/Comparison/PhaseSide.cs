using SqlWaitProbe.Analysis.Input;
using SqlWaitProbe.Analysis.Ledger;

namespace SqlWaitProbe.Analysis.Comparison;

/// <summary>One capture's phase in a comparison.</summary>
/// <param name="Label">The capture's label.</param>
/// <param name="Ledger">The phase's ledger.</param>
/// <param name="Data">The phase's data.</param>
public sealed record PhaseSide(string Label, PhaseLedger Ledger, PhaseData Data)
{
    /// <summary>Milliseconds per execution of <paramref name="seconds"/> spent over the phase (0 without executions).</summary>
    public double PerExecutionMs(double seconds) => Ledger.CountedExecutions > 0 ? seconds * 1000 / Ledger.CountedExecutions : 0;

    /// <summary>A count per execution (0 without executions).</summary>
    public double PerExecution(double count) => Ledger.CountedExecutions > 0 ? count / Ledger.CountedExecutions : 0;
}
