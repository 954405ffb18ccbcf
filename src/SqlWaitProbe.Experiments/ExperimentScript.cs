namespace SqlWaitProbe.Experiments;

/// <summary>SQL an experiment runs outside the measured work (setup, teardown, a variant's before and after), with where it was written.</summary>
/// <param name="Text">The SQL.</param>
/// <param name="File">The file it came from: the experiment file for inline SQL, else the SQL file it names.</param>
/// <param name="Line">The line of <paramref name="File"/> the SQL's first line is on (1 for a SQL file).</param>
/// <param name="Role">What it is for, in messages: <c>setup</c>, <c>teardown</c>, <c>before of variant x</c>.</param>
public sealed record ExperimentScript(string Text, string File, int Line, string Role);
