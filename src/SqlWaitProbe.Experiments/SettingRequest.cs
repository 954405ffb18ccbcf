namespace SqlWaitProbe.Experiments;

/// <summary>One setting a variant asks for, as written.</summary>
/// <param name="Name">The setting's name, as its engine names it (<c>work_mem</c>, <c>sp_configure.max degree of parallelism</c>).</param>
/// <param name="Value">The value asked for, as written.</param>
/// <param name="Line">Line of the experiment file it is on.</param>
public sealed record SettingRequest(string Name, string Value, int Line);
