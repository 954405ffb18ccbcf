namespace SqlWaitProbe.SqlServer.Catalog.Tests;

/// <summary>One piece of T-SQL put into a catalog model: an object the probe creates, or a batch bound as a procedure body.</summary>
/// <param name="Source">Where it comes from (unique; shown in every failure), e.g. <c>hashbytes: [session 1] workload query</c>.</param>
/// <param name="Sql">The T-SQL exactly as the generator produced it.</param>
/// <param name="IsObject">True for an object the probe creates (table, sequence): it enters the model before any body is bound.</param>
public sealed record BindingCase(string Source, string Sql, bool IsObject = false);
