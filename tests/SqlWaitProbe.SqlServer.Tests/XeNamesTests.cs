using System.Text.RegularExpressions;
using Microsoft.SqlServer.TransactSql.ScriptDom;
using SqlWaitProbe.SqlServer.Commands;
using SqlWaitProbe.SqlServer.Dmv;
using SqlWaitProbe.SqlServer.Xe;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.SqlServer.Tests;

/// <summary>
/// The extended-event names of the generated DDL come only from the documented list (<see cref="XeNames"/>, shown in
/// docs/xe-names.md): the server catalogs hold no XE metadata, so this list is what the names are checked against.
/// </summary>
public sealed class XeNamesTests
{
    private static IEnumerable<SqlStatement> Creates()
    {
        var filters = new[]
        {
            new SessionFilter { SessionIds = [51, 52, 77] },
            new SessionFilter { SessionIdsPending = true },
            new SessionFilter { SessionIds = [.. Enumerable.Range(51, 400)] },
            new SessionFilter { ExcludeApplication = "SqlWaitProbe-ab12cd34ef" },
            new SessionFilter { SessionIds = [51], Database = "Sales", Application = "Order Entry", Login = "app", ExcludeApplication = "SqlWaitProbe-ab12cd34ef" },
        };
        foreach (var filter in filters)
        {
            foreach (var rva in new[] { true, false })
            {
                var builder = new XeSessionBuilder(new XeSessionOptions { RunId = "ab12cd34ef", Filter = filter, CallstackRva = rva });
                foreach (var stream in Enum.GetValues<XeStream>())
                {
                    yield return builder.Create(stream);
                }
            }
        }
    }

    [Fact]
    public void Generated_event_sessions_use_only_listed_names_and_every_listed_name_is_used()
    {
        var used = new HashSet<(string Kind, string Name)>();
        foreach (var statement in Creates())
        {
            var create = (CreateEventSessionStatement)((TSqlScript)TSqlAssert.Parses(statement.Text, statement.Purpose)).Batches[0].Statements[0];
            foreach (var e in create.EventDeclarations)
            {
                used.Add(("event", Name(e.ObjectName)));
                foreach (var action in e.EventDeclarationActionParameters ?? [])
                {
                    used.Add(("action", Name(action)));
                }

                var sources = new SourceCollector();
                e.EventDeclarationPredicateParameter?.Accept(sources);
                used.UnionWith(sources.Names.Select(n => ("predicate source", n)));
            }

            foreach (var t in create.TargetDeclarations)
            {
                var target = Name(t.ObjectName);
                used.Add(("target", target));
                foreach (var option in t.TargetDeclarationParameters)
                {
                    used.Add(("target option", target.Split('.')[1] + "." + option.EventField.Value));
                    if (option.EventValue is StringLiteral { Value: var value } && option.EventField.Value is "source" or "filtering_event_name")
                    {
                        // A histogram's source is an event field or an action; the filtering event is one of the session's events.
                        used.Add(option.EventField.Value == "filtering_event_name" ? ("event", value) : value.Contains('.') ? ("action", value) : ("field", value));
                    }
                }
            }

            foreach (Match option in Regex.Matches(statement.Text[statement.Text.LastIndexOf("WITH (", StringComparison.Ordinal)..], @"([A-Z_]+) ="))
            {
                used.Add(("session option", option.Groups[1].Value));
            }
        }

        var unlisted = used.Where(u => !XeNames.Contains(u.Kind, u.Name)).ToList();
        Assert.True(unlisted.Count == 0, "names used but not in XeNames: " + string.Join(", ", unlisted));
        // Fields other than the histogram's are read back from the events, not written into the DDL.
        var unused = XeNames.All.Where(n => n.Kind != "field" && !used.Contains((n.Kind, n.Name))).ToList();
        Assert.True(unused.Count == 0, "listed but never generated: " + string.Join(", ", unused.Select(n => n.Name)));
        Assert.Contains(("field", "memory_clerk_name"), used);
    }

    [Fact]
    public void Every_listed_name_has_a_source_and_the_docs_show_the_same_list()
    {
        var docs = File.ReadAllText(System.IO.Path.Combine(TestData.RepoRoot, "docs", "xe-names.md"));
        foreach (var name in XeNames.All)
        {
            Assert.False(string.IsNullOrWhiteSpace(name.Source), name.Name);
            Assert.Contains($"| {name.Kind} | `{name.Name}` |", docs);
        }

        Assert.Equal(XeNames.All.Count, Regex.Matches(docs, @"^\| [a-z ]+ \| `", RegexOptions.Multiline).Count);
    }

    private static string Name(EventSessionObjectName name) => string.Join(".", name.MultiPartIdentifier.Identifiers.Select(i => i.Value));

    private sealed class SourceCollector : TSqlFragmentVisitor
    {
        public List<string> Names { get; } = [];

        public override void Visit(SourceDeclaration node) => Names.Add(Name(node.Value));
    }
}
