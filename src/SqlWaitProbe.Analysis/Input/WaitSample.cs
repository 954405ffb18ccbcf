namespace SqlWaitProbe.Analysis.Input;

/// <summary>One row of wait_samples.csv: a wait seen at <paramref name="Ms"/> since the phase start.</summary>
/// <param name="Ms">When the sample was taken, ms since the phase start.</param>
/// <param name="Session">Driver session number, or null when the source does not tell sessions apart.</param>
/// <param name="Type">Wait type (<c>Class:Event</c>).</param>
/// <param name="WaitMs">Milliseconds of waiting the sample stands for.</param>
public sealed record WaitSample(double Ms, int? Session, string Type, double WaitMs);
