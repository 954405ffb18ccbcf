using System.Text.RegularExpressions;
using SqlWaitProbe.Core.Workloads;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.SqlServer.Workloads;

/// <summary>Workloads the user brings: the SQL of a file (<c>--sql</c>) or a stored procedure (<c>--proc</c>).</summary>
public static partial class CustomWorkload
{
    /// <summary>A workload whose query is the whole text of <paramref name="path"/>, run as one batch; no setup.</summary>
    public static WorkloadDefinition FromSqlFile(string path)
    {
        var text = Core.Files.SqlScriptFile.Read(path);
        if (GoSeparator().IsMatch(text))
        {
            throw new BadInputException("the SQL file holds GO batch separators; a workload query must be a single batch", path);
        }

        return new WorkloadDefinition
        {
            Name = "sql:" + Path.GetFileName(path),
            Engine = SqlServerWorkloadCatalog.Engine,
            Summary = $"Runs the batch in {Path.GetFileName(path)} once per execution.",
            KnownToShow = "User-supplied workload: nothing is known in advance.",
            Setup = [],
            Query = text,
            SessionSetup = ["SET NOCOUNT ON;"],
        };
    }

    /// <summary>A workload that calls stored procedure <paramref name="name"/> (one to three part name) once per execution.</summary>
    public static WorkloadDefinition FromProcedure(string name) => new()
    {
        Name = "proc:" + name,
        Engine = SqlServerWorkloadCatalog.Engine,
        Summary = $"Calls the stored procedure {name} once per execution.",
        KnownToShow = "User-supplied workload: nothing is known in advance.",
        Setup = [],
        Query = "EXEC " + QuoteProcedureName(name) + ";",
        SessionSetup = ["SET NOCOUNT ON;"],
    };

    /// <summary>Quotes each part of a procedure name with brackets; rejects anything that is not a plain multi-part name.</summary>
    public static string QuoteProcedureName(string name)
    {
        var parts = name.Split('.');
        if (parts.Length is < 1 or > 3 || parts.Any(p => !PlainPart().IsMatch(p.Trim('[', ']'))))
        {
            throw new BadInputException($"--proc '{name}' is not a procedure name (expected name, schema.name or database.schema.name)");
        }

        return string.Join('.', parts.Select(p => "[" + p.Trim('[', ']').Replace("]", "]]", StringComparison.Ordinal) + "]"));
    }

    [GeneratedRegex(@"^\s*GO\s*$", RegexOptions.Multiline | RegexOptions.IgnoreCase)]
    private static partial Regex GoSeparator();

    [GeneratedRegex(@"^[\p{L}_#@][\p{L}\p{Nd}_@$#]{0,127}$")]
    private static partial Regex PlainPart();
}
