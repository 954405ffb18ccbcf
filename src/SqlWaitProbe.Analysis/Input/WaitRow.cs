namespace SqlWaitProbe.Analysis.Input;

/// <summary>One row of waits.csv.</summary>
/// <param name="Scope"><c>session</c> or <c>server</c>.</param>
/// <param name="Type">Wait type (SQL Server) or <c>Class:Event</c> (PostgreSQL).</param>
/// <param name="Category">Category as the collector assigned it.</param>
/// <param name="WaitMs">Wait time in ms (signal time included, as SQL Server reports it).</param>
/// <param name="SignalMs">Signal wait time in ms (runnable, waiting for a scheduler).</param>
/// <param name="WaitingTasks">Waits counted.</param>
public sealed record WaitRow(string Scope, string Type, string Category, double WaitMs, double SignalMs, long WaitingTasks);
