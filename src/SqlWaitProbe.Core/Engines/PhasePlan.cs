namespace SqlWaitProbe.Core.Engines;

/// <summary>One phase to run: its name and session count.</summary>
/// <param name="Name"><c>baseline</c>, <c>load</c>, or a sweep level named by its thread count.</param>
/// <param name="Threads">Concurrent sessions.</param>
public sealed record PhasePlan(string Name, int Threads);
