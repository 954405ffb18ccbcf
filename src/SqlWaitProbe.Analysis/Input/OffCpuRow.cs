namespace SqlWaitProbe.Analysis.Input;

/// <summary>One stretch off the CPU: switched out at <paramref name="StartMs"/>, back at <paramref name="EndMs"/> (ms since the phase start).</summary>
/// <param name="StartMs">Switch out.</param>
/// <param name="EndMs">Switch back in.</param>
/// <param name="Session">Driver session whose server process it was.</param>
/// <param name="State">State at the switch out: <c>R</c> preempted (runnable), otherwise blocked (<c>S</c>, <c>D</c>, …).</param>
/// <param name="StackId">Stack index.</param>
public sealed record OffCpuRow(double StartMs, double EndMs, int Session, char State, int StackId);
