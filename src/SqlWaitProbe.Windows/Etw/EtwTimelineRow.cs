namespace SqlWaitProbe.Windows.Etw;

/// <summary>One row of <c>cpu/timeline.csv</c>: leaf-module weight in one whole second of the phase.</summary>
/// <param name="Second">Whole seconds since the phase start.</param>
/// <param name="Process">Process name.</param>
/// <param name="Module">Leaf frame's module.</param>
/// <param name="Kernel">True when the leaf frame is kernel code.</param>
/// <param name="Weight">Samples.</param>
public sealed record EtwTimelineRow(int Second, string Process, string Module, bool Kernel, long Weight);
