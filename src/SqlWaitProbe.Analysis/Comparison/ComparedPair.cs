namespace SqlWaitProbe.Analysis.Comparison;

/// <summary>
/// A later capture's phase against the first capture's: what every comparison rule reads, with the figures several
/// of them share computed once.
/// </summary>
/// <param name="Phase">The compared phase.</param>
/// <param name="Index">The later capture's index (1 or more); its Δ are against index 0.</param>
public sealed record ComparedPair(PhaseComparison Phase, int Index)
{
    /// <summary>A change of session time per execution at or above this share of the first capture's is material.</summary>
    public const double MaterialChange = 0.10;

    /// <summary>The first capture's side.</summary>
    public PhaseSide Before => Phase.Sides[0];

    /// <summary>The later capture's side.</summary>
    public PhaseSide After => Phase.Sides[Index];

    /// <summary>Δ session ms per execution.</summary>
    public double Change => After.Ledger.MsPerExecution - Before.Ledger.MsPerExecution;

    /// <summary>The change relative to the first capture's session ms per execution (0 when it had none).</summary>
    public double RelativeChange => Before.Ledger.MsPerExecution > 0 ? Change / Before.Ledger.MsPerExecution : 0;

    /// <summary>True when the change is at least <see cref="MaterialChange"/> of the first capture's time per execution.</summary>
    public bool Material => Before.Ledger.MsPerExecution > 0 && Math.Abs(Change) >= MaterialChange * Before.Ledger.MsPerExecution;

    /// <summary>Δ waits ÷ Δ session time per execution, when the change is not near zero (clamped to ±10).</summary>
    public double? WaitsExplain
    {
        get
        {
            var waits = Phase.Ledger.FirstOrDefault(x => x.Name == "waits")?.Delta(Index);
            return waits is { } w && Before.Ledger.MsPerExecution > 0 && Math.Abs(Change) >= 0.01 * Before.Ledger.MsPerExecution
                ? Math.Clamp(w / Change, -10, 10)
                : null;
        }
    }
}
