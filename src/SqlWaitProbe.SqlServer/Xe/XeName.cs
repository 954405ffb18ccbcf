namespace SqlWaitProbe.SqlServer.Xe;

/// <summary>One extended-event name the probe uses, with where its existence and meaning come from.</summary>
/// <param name="Kind">event, action, predicate source, field, target, target option or session option.</param>
/// <param name="Name">The name as written in T-SQL: <c>package.object</c> for events, actions, predicate sources and targets; <c>target.option</c> for target options; the bare name for fields and session options.</param>
/// <param name="Source">Where the name is documented, or how the probe confirms it on the server at capture time.</param>
public sealed record XeName(string Kind, string Name, string Source);
