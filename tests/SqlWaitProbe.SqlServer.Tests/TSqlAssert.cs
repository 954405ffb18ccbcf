using Microsoft.SqlServer.TransactSql.ScriptDom;

namespace SqlWaitProbe.SqlServer.Tests;

/// <summary>
/// Parses T-SQL with ScriptDom: the SQL Server 2022 grammar (TSql160Parser; the probe's newest features, such as
/// <c>callstack_rva</c>, are 2022's) and the SQL Server 2025 grammar (TSql170Parser), so every statement the probe
/// sends is valid for both.
/// </summary>
internal static class TSqlAssert
{
    public static TSqlFragment Parses(string sql, string what)
    {
        TSqlFragment? fragment = null;
        foreach (TSqlParser parser in (TSqlParser[])[new TSql160Parser(initialQuotedIdentifiers: true), new TSql170Parser(initialQuotedIdentifiers: true)])
        {
            var parsed = parser.Parse(new StringReader(sql), out var errors);
            if (errors.Count > 0)
            {
                var first = errors[0];
                var line = sql.Split('\n').ElementAtOrDefault(first.Line - 1)?.Trim();
                Assert.Fail($"{what}: {parser.GetType().Name} parse error {first.Number} at {first.Line}:{first.Column}: {first.Message}\n  line: {line}\n--- full text ---\n{sql}");
            }

            fragment ??= parsed;
        }

        return fragment!;
    }

    /// <summary>Every statement type in the fragment, e.g. <c>CreateTableStatement</c>.</summary>
    public static IReadOnlyList<string> StatementTypes(TSqlFragment fragment)
    {
        var visitor = new StatementCollector();
        fragment.Accept(visitor);
        return visitor.Types;
    }

    /// <summary>The literal batches passed to <c>sys.sp_executesql</c> (dynamic SQL the outer parse does not see).</summary>
    public static IReadOnlyList<string> DynamicSql(TSqlFragment fragment)
    {
        var visitor = new DynamicSqlCollector();
        fragment.Accept(visitor);
        return visitor.Batches;
    }

    private sealed class DynamicSqlCollector : TSqlFragmentVisitor
    {
        public List<string> Batches { get; } = [];

        public override void Visit(ExecutableProcedureReference node)
        {
            var name = node.ProcedureReference?.ProcedureReference?.Name?.BaseIdentifier?.Value;
            if (string.Equals(name, "sp_executesql", StringComparison.OrdinalIgnoreCase)
                && node.Parameters.Count > 0 && node.Parameters[0].ParameterValue is StringLiteral literal)
            {
                Batches.Add(literal.Value);
            }
        }
    }

    private sealed class StatementCollector : TSqlFragmentVisitor
    {
        public List<string> Types { get; } = [];

        public override void Visit(TSqlStatement node) => Types.Add(node.GetType().Name);
    }
}
