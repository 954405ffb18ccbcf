namespace SqlWaitProbe.SqlServer.Xe;

/// <summary>One event read from an <c>.xel</c> file.</summary>
/// <param name="Name">Event name, e.g. <c>rpc_completed</c>.</param>
/// <param name="Utc">Event time (UTC).</param>
/// <param name="Fields">Data fields by name: numbers as <see cref="ulong"/>/<see cref="long"/>, strings, binary as hex text.</param>
/// <param name="Actions">Actions by name, decoded the same way.</param>
public sealed record XelEvent(string Name, DateTime Utc, IReadOnlyDictionary<string, object?> Fields, IReadOnlyDictionary<string, object?> Actions);
