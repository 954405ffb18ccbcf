namespace SqlWaitProbe.Core.ServerSettings;

/// <summary>One batch of a script as its engine's client sends it (T-SQL between <c>GO</c> lines, one PostgreSQL statement).</summary>
/// <param name="Number">1-based position in the script.</param>
/// <param name="Line">The script's line the batch starts on (1-based).</param>
/// <param name="Text">The batch's SQL.</param>
/// <param name="Repeat">How often it runs (<c>GO 5</c>); 1 otherwise.</param>
public sealed record ScriptBatch(int Number, int Line, string Text, int Repeat = 1);
