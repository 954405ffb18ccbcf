using System.Globalization;
using System.Xml;
using System.Xml.Linq;

namespace SqlWaitProbe.Analysis.Statements;

/// <summary>
/// Reads a SQL Server showplan XML (<c>.sqlplan</c>: the cached plan, or the last actual plan with run-time counters)
/// into a <see cref="PlanSummary"/>: operators that spilled to tempdb, memory grant warnings and the grant itself,
/// parallelism (degree, exchanges, bitmaps, threads reserved and used), and operators whose actual rows per execution
/// are more than <see cref="PostgresPlanReader.EstimateFactor"/> times off the estimate either way.
/// </summary>
public static class SqlServerPlanReader
{
    private static readonly XNamespace Ns = "http://schemas.microsoft.com/sqlserver/2004/07/showplan";

    /// <summary>Reads <paramref name="xml"/>, the file <paramref name="file"/>; a plan it cannot read says why in <see cref="PlanSummary.Problem"/>.</summary>
    public static PlanSummary Read(string file, string xml)
    {
        XDocument doc;
        try
        {
            // The file comes from a bundle: no DTD, no external entity is ever resolved.
            using var reader = XmlReader.Create(new StringReader(xml), new XmlReaderSettings { DtdProcessing = DtdProcessing.Prohibit, XmlResolver = null });
            doc = XDocument.Load(reader);
        }
        catch (XmlException e)
        {
            return new PlanSummary { File = file, Problem = "not showplan XML: " + e.Message };
        }

        var plan = doc.Descendants(Ns + "QueryPlan").FirstOrDefault();
        if (plan is null)
        {
            return new PlanSummary { File = file, Problem = "no QueryPlan element: not a showplan" };
        }

        var notes = new List<PlanNote>();
        var ops = doc.Descendants(Ns + "RelOp").ToList();
        foreach (var op in ops)
        {
            var name = Op(op);
            foreach (var spill in Own(op, "Warnings").SelectMany(w => w.Elements(Ns + "SpillToTempDb")))
            {
                notes.Add(new PlanNote("spill", name, $"spilled to tempdb (level {Attr(spill, "SpillLevel") ?? "?"}, {Attr(spill, "SpilledThreadCount") ?? "?"} thread(s))"));
            }

            foreach (var details in Own(op, "Warnings").SelectMany(w => w.Elements().Where(e => e.Name.LocalName is "SortSpillDetails" or "HashSpillDetails" or "ExchangeSpillDetails")))
            {
                if (Num(details, "WritesToTempDb") is { } pages)
                {
                    notes.Add(new PlanNote("spill", name, $"{F(pages)} pages written to tempdb"));
                }
            }
        }

        foreach (var warning in doc.Descendants(Ns + "MemoryGrantWarning"))
        {
            notes.Add(new PlanNote("grant", "Memory grant", $"{Attr(warning, "GrantWarningKind") ?? "warning"}: requested {F(Num(warning, "RequestedMemory") ?? 0)} KB, granted {F(Num(warning, "GrantedMemory") ?? 0)} KB, used {F(Num(warning, "MaxUsedMemory") ?? 0)} KB"));
        }

        // The grant itself matters (RESERVED_MEMORY, RESOURCE_SEMAPHORE); a grant warning already states it.
        if (!notes.Any(n => n.Kind == "grant") && plan.Element(Ns + "MemoryGrantInfo") is { } grant && Num(grant, "GrantedMemory") is > 0)
        {
            var used = Num(grant, "MaxUsedMemory");
            notes.Add(new PlanNote("grant", "Memory grant", $"requested {F(Num(grant, "RequestedMemory") ?? 0)} KB, granted {F(Num(grant, "GrantedMemory")!.Value)} KB" + (used is { } u ? $", used {F(u)} KB" : "")));
        }

        var dop = Num(plan, "DegreeOfParallelism");
        var threads = plan.Descendants(Ns + "ThreadReservation").ToList();
        var stat = plan.Element(Ns + "ThreadStat");
        int? reserved = threads.Count > 0 ? (int)threads.Sum(t => Num(t, "ReservedThreads") ?? 0) : null;
        int? usedThreads = stat is not null && Num(stat, "UsedThreads") is { } threadsUsed ? (int)threadsUsed : null;
        if (dop is > 1)
        {
            var exchanges = ops.Count(o => Op(o) == "Parallelism");
            var bitmaps = ops.Count(o => Op(o) == "Bitmap");
            notes.Add(new PlanNote("parallel", "Parallelism", $"DOP {F(dop.Value)}, {exchanges} exchange(s), {bitmaps} bitmap(s)"
                + (stat is null ? "" : $", {F(Num(stat, "Branches") ?? 0)} branch(es)") + (usedThreads is { } used ? $", {used} threads used" : "")));
        }

        var estimates = new List<(double Ratio, PlanNote Note)>();
        foreach (var op in ops)
        {
            var counters = Own(op, "RunTimeInformation").SelectMany(r => r.Elements(Ns + "RunTimeCountersPerThread")).ToList();
            if (counters.Count == 0 || Num(op, "EstimateRows") is not { } estimate)
            {
                continue;
            }

            // Actual rows add up over threads and executions; the estimate is per execution.
            var rows = counters.Sum(c => Num(c, "ActualRows") ?? 0);
            var executions = Math.Max(1, counters.Sum(c => Num(c, "ActualExecutions") ?? 0));
            var perExecution = rows / executions;
            var ratio = Math.Max(perExecution, estimate) / Math.Max(1, Math.Min(perExecution, estimate));
            if (ratio > PostgresPlanReader.EstimateFactor)
            {
                estimates.Add((ratio, new PlanNote("estimate", Op(op), $"{F(perExecution)} rows per execution against {F(estimate)} estimated ({F(Math.Round(ratio))}×)")));
            }
        }

        notes.AddRange(estimates.OrderByDescending(e => e.Ratio).Take(PostgresPlanReader.MaxEstimateNotes).Select(e => e.Note));
        return new PlanSummary
        {
            File = file,
            Actual = doc.Descendants(Ns + "RunTimeInformation").Any(),
            Notes = notes,
            Operators = [.. ops.Select(Op)],
            WorkersPlanned = dop is > 1 ? reserved : null,
            WorkersLaunched = dop is > 1 ? usedThreads : null,
        };
    }

    // An operator's own child elements, not those of the operators below it.
    private static IEnumerable<XElement> Own(XElement op, string name) => op.Elements(Ns + name);

    private static string Op(XElement op) => Attr(op, "PhysicalOp") ?? "?";

    private static string? Attr(XElement e, string name) => e.Attribute(name)?.Value;

    private static double? Num(XElement e, string name) =>
        double.TryParse(Attr(e, name), NumberStyles.Float, CultureInfo.InvariantCulture, out var v) ? v : null;

    private static string F(double value) => Core.Text.Figures.F(value);
}
