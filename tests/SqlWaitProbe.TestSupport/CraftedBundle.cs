using System.Globalization;
using System.Text;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.Core.Engines;

namespace SqlWaitProbe.TestSupport;

/// <summary>
/// A test fixture that writes a crafted capture bundle folder (docs/bundle-format.md) with chosen phases,
/// executions, sessions, waits, series, stacks, spinlocks and XE page events, so each analysis rule can be
/// tested on figures chosen for it. Every phase's sessions run their executions back to back.
/// </summary>
public sealed class CraftedBundle
{
    private static readonly DateTime Start = new(2026, 1, 5, 10, 0, 0, DateTimeKind.Utc);
    private readonly List<BundlePhase> _phases = [];
    private readonly List<BundleCollector> _collectors = [];
    private readonly Dictionary<string, StringBuilder> _files = new(StringComparer.Ordinal);
    private string _status = BundleStatus.Complete;
    private string? _reason;
    private BundleTrigger? _trigger;

    /// <summary>Starts a bundle for an engine and its server process name.</summary>
    public CraftedBundle(string engine = "sqlserver", string serverProcess = "sqlservr", string workload = "hashbytes", string host = "dbhost01")
    {
        Engine = engine;
        ServerProcess = serverProcess;
        Workload = workload;
        Host = host;
    }

    /// <summary>Engine name written to the manifest.</summary>
    public string Engine { get; }

    /// <summary>Server process name written to the manifest.</summary>
    public string ServerProcess { get; }

    /// <summary>Workload name (or <c>attach</c>).</summary>
    public string Workload { get; }

    /// <summary>Host name written to the manifest.</summary>
    public string Host { get; }

    /// <summary>Adds a phase whose <paramref name="threads"/> sessions each run <paramref name="executionsPerSession"/> executions of <paramref name="msEach"/> ms back to back.</summary>
    public CraftedBundle Phase(string name, int threads, int executionsPerSession, double msEach)
    {
        var offset = _phases.Count == 0 ? Start : _phases[^1].EndUtc.AddSeconds(1);
        var seconds = executionsPerSession * msEach / 1000;
        _phases.Add(new BundlePhase { Name = name, Threads = threads, StartUtc = offset, EndUtc = offset.AddSeconds(seconds), Executions = threads * executionsPerSession });
        var csv = File(BundlePaths.Executions(name), "session,start_ms,end_ms,rows,error");
        for (var s = 1; s <= threads; s++)
        {
            for (var i = 0; i < executionsPerSession; i++)
            {
                csv.Append(CultureInfo.InvariantCulture, $"{s},{i * msEach:0.###},{(i + 1) * msEach:0.###},1,\n");
            }
        }

        return this;
    }

    /// <summary>Adds an attach window: a phase of 0 threads and no executions.csv, as <c>--attach</c> writes it.</summary>
    public CraftedBundle AttachWindow(string name, double seconds)
    {
        var offset = _phases.Count == 0 ? Start : _phases[^1].EndUtc.AddSeconds(1);
        _phases.Add(new BundlePhase { Name = name, Threads = 0, StartUtc = offset, EndUtc = offset.AddSeconds(seconds), Executions = 0 });
        return this;
    }

    /// <summary>Adds sessions.csv: the CPU and run-queue ms are split evenly over the phase's sessions.</summary>
    public CraftedBundle Sessions(string phase, double cpuMs, double? runQueueMs = null)
    {
        var threads = PhaseNamed(phase).Threads;
        var csv = File(BundlePaths.Sessions(phase), "session,backend_pid,db_session_id,cpu_ms,run_queue_ms");
        for (var s = 1; s <= threads; s++)
        {
            var rq = runQueueMs is { } r ? (r / threads).ToString("R", CultureInfo.InvariantCulture) : "";
            csv.Append(CultureInfo.InvariantCulture, $"{s},{1000 + s},{50 + s},{(cpuMs / threads).ToString("R", CultureInfo.InvariantCulture)},{rq}\n");
        }

        return this;
    }

    /// <summary>Logical CPUs written to the manifest.</summary>
    public int LogicalCpus { get; init; } = 4;

    /// <summary>Adds a session_timeline.csv reading: cumulative CPU and run-queue ms of a session at <paramref name="ms"/> since the phase start.</summary>
    public CraftedBundle SessionReading(string phase, int session, double ms, double cpuMs, double runQueueMs) =>
        Line(BundlePaths.SessionTimeline(phase), "ms,session,cpu_ms,run_queue_ms", $"{N(ms)},{session},{N(cpuMs)},{N(runQueueMs)}");

    /// <summary>Adds a wait_samples.csv row (session null: a sample that does not tell sessions apart).</summary>
    public CraftedBundle WaitSample(string phase, double ms, int? session, string type, double waitMs) =>
        Line(BundlePaths.WaitSamples(phase), "ms,session,wait_type,wait_ms", $"{N(ms)},{session?.ToString(CultureInfo.InvariantCulture)},{type},{N(waitMs)}");

    /// <summary>Adds an offcpu/stacks.csv row; ids must be added in order from 0.</summary>
    public CraftedBundle OffCpuStack(string phase, int id, string stack) =>
        Line(BundlePaths.OffCpuStacks(phase), "stack_id,stack", $"{id},{stack}");

    /// <summary>Adds an offcpu/intervals.csv row: a session off the CPU from <paramref name="startMs"/> to <paramref name="endMs"/>.</summary>
    public CraftedBundle OffCpuInterval(string phase, double startMs, double endMs, int session, char state, int stackId) =>
        Line(BundlePaths.OffCpuIntervals(phase), "start_ms,end_ms,session,state,stack_id", $"{N(startMs)},{N(endMs)},{session},{state},{stackId}");

    /// <summary>Adds a waits.csv row.</summary>
    public CraftedBundle Wait(string phase, string type, double waitMs, double signalMs = 0, string scope = "session", long waitingTasks = 10) =>
        Line(BundlePaths.Waits(phase), "scope,wait_type,category,wait_ms,signal_ms,waiting_tasks", $"{scope},{type},Other,{N(waitMs)},{N(signalMs)},{waitingTasks}");

    /// <summary>Adds a folded stack line in the bundle's form (<c>process;module!symbol;… weight</c>).</summary>
    public CraftedBundle Stack(string phase, string folded, long weight) =>
        Line(BundlePaths.Stacks(phase), null, $"{folded} {weight}");

    /// <summary>Adds a series.csv value at a second since the phase start.</summary>
    public CraftedBundle Series(string phase, string series, int second, double value) =>
        Line(BundlePaths.Series(phase), "utc,series,value", $"{PhaseNamed(phase).StartUtc.AddSeconds(second):yyyy-MM-ddTHH:mm:ss.fffZ},{series},{N(value)}");

    /// <summary>Adds a cpu/timeline.csv row for the server process.</summary>
    public CraftedBundle Timeline(string phase, int second, string module, bool kernel, double weight) =>
        Line(BundlePaths.StackTimeline(phase), "second,process,module,kernel,weight", $"{second},{ServerProcess},{module},{(kernel ? 1 : 0)},{N(weight)}");

    /// <summary>Writes cpu/sampling.json.</summary>
    public CraftedBundle Sampling(string phase, long samples, double hz, double seconds, int cpus)
    {
        File(BundlePaths.StackInfo(phase), null).Append(CultureInfo.InvariantCulture,
            $"{{ \"source\": \"perf\", \"sampleHz\": {N(hz)}, \"samples\": {samples}, \"lostSamples\": 0, \"durationSeconds\": {N(seconds)}, \"logicalCpus\": {cpus} }}\n");
        return this;
    }

    /// <summary>Writes overhead.json.</summary>
    public CraftedBundle Overhead(string phase, double instrumented, double uninstrumented, double? low = null, double? high = null, int uninstrumentedExecutions = 12, int instrumentedExecutions = 60)
    {
        var interval = low is { } l && high is { } h ? $", \"ratioLow\": {N(l)}, \"ratioHigh\": {N(h)}, \"uninstrumentedExecutions\": {uninstrumentedExecutions}, \"instrumentedExecutions\": {instrumentedExecutions}" : "";
        File(BundlePaths.Overhead(phase), null).Append(CultureInfo.InvariantCulture,
            $"{{ \"instrumentedPerSecond\": {N(instrumented)}, \"uninstrumentedPerSecond\": {N(uninstrumented)}, \"ratio\": {N(instrumented / uninstrumented)}, \"method\": \"crafted\"{interval} }}\n");
        return this;
    }

    /// <summary>The server configuration recorded in the manifest (e.g. <c>memory model</c>).</summary>
    public Dictionary<string, string> Configuration { get; } = new(StringComparer.Ordinal);

    /// <summary>Adds a dmv/latch_stats.csv row.</summary>
    public CraftedBundle Latch(string phase, string latchClass, double waits, double waitMs) =>
        Line(BundlePaths.Dmv(phase) + "/latch_stats.csv", "latch_class,waiting_requests_count,wait_time_ms,max_wait_time_ms_start,max_wait_time_ms_end,restarts", $"{latchClass},{N(waits)},{N(waitMs)},0,0,0");

    /// <summary>Adds a dmv/spinlock_stats.csv row.</summary>
    public CraftedBundle Spinlock(string phase, string name, double spins, double backoffs = 0) =>
        Line(BundlePaths.Dmv(phase) + "/spinlock_stats.csv", "name,collisions,spins,spins_per_collision,sleep_time,backoffs", $"{name},{N(spins / 100)},{N(spins)},100,0,{N(backoffs)}");

    /// <summary>Adds <paramref name="count"/> identical xe/page_events.csv rows at a second since the phase start.</summary>
    public CraftedBundle XePages(string phase, int second, string ev, string clerk, int pages, int count = 1)
    {
        for (var i = 0; i < count; i++)
        {
            Line(BundlePaths.Xe(phase) + "/page_events.csv", "utc,event,session_id,memory_clerk_name,pages", $"{PhaseNamed(phase).StartUtc.AddSeconds(second):yyyy-MM-ddTHH:mm:ss.fffZ},{ev},52,{clerk},{pages}");
        }

        return this;
    }

    /// <summary>Adds a collector outcome to the manifest.</summary>
    public CraftedBundle Collector(string name, string status, string? error = null, long lost = 0)
    {
        _collectors.Add(new BundleCollector { Name = name, Status = status, Error = error, LostEvents = lost });
        return this;
    }

    /// <summary>Makes the bundle a <c>probe watch</c> dump: <paramref name="trigger"/> fired <paramref name="secondsIn"/> s after the first phase began.</summary>
    public CraftedBundle Trigger(BundleTrigger trigger, double secondsIn)
    {
        ArgumentNullException.ThrowIfNull(trigger);
        _trigger = trigger with { FiredUtc = Start.AddSeconds(secondsIn) };
        return this;
    }

    /// <summary>Marks the capture as not complete.</summary>
    public CraftedBundle Status(string status, string? reason)
    {
        _status = status;
        _reason = reason;
        return this;
    }

    /// <summary>Adds an activity.csv row: a session (null: a blocker outside the watched ones) sampled at <paramref name="ms"/>.</summary>
    public CraftedBundle Activity(string phase, double ms, int? session, int pid, string state, string? statement, string? waitType = null, string? blockedBy = null, double sampleMs = 10) =>
        Line(BundlePaths.Activity(phase), BundleColumns.Header(BundleColumns.Activity.All),
            Csv.Line(N(ms), session?.ToString(CultureInfo.InvariantCulture), pid.ToString(CultureInfo.InvariantCulture), state, statement, waitType, blockedBy, N(sampleMs)));

    /// <summary>Adds a statements/texts.csv row.</summary>
    public CraftedBundle StatementText(string phase, string statement, string text) =>
        Line(BundlePaths.StatementTexts(phase), BundleColumns.Header(BundleColumns.StatementTexts.All), Csv.Line(statement, StatementKeyIsText(statement) ? null : statement, text));

    /// <summary>Adds a statements/statements.csv row with PostgreSQL's columns (the grants, CPU and DOP empty).</summary>
    public CraftedBundle StatementStat(string phase, string statement, string text, long executions, double elapsedMs, long rows = 0, long spillPages = 0) =>
        Line(BundlePaths.StatementStats(phase), BundleColumns.Header(BundleColumns.Statements.All),
            Csv.Line(statement, statement, null, text, N(executions), N(elapsedMs), null, N(rows), N(rows * 2), "0", "0", N(spillPages), null, null, null, null, null));

    private static bool StatementKeyIsText(string statement) => statement.StartsWith("text:", StringComparison.Ordinal);

    /// <summary>Adds a dmv/memory_clerks.csv row as the DMV snapshot writer writes it (per node; KB at start and end).</summary>
    public CraftedBundle MemoryClerk(string phase, string type, string name, int node, double startKb, double endKb) =>
        Line(BundlePaths.MemoryClerks(phase), "type,name,memory_node_id,pages_kb_start,virtual_memory_committed_kb_start,awe_allocated_kb_start,pages_kb_end,virtual_memory_committed_kb_end,awe_allocated_kb_end,restarts",
            $"{type},{name},{node},{N(startKb)},0,0,{N(endKb)},0,0,0");

    /// <summary>Adds an xe/clerk_histogram.csv row (the pages stream's histogram target by clerk).</summary>
    public CraftedBundle ClerkHistogram(string phase, string clerk, long count) =>
        Line(BundlePaths.XeClerkHistogram(phase), "value,count", $"{clerk},{count}");

    /// <summary>Adds or replaces a raw file (text as given).</summary>
    public CraftedBundle Raw(string relative, string text)
    {
        _files[relative] = new StringBuilder(text);
        return this;
    }

    /// <summary>Writes the bundle into a new folder under <paramref name="parent"/> (a fresh temporary folder when null) and returns its path.</summary>
    public string Write(string? parent = null)
    {
        var root = Path.Combine(parent ?? TestData.TempFolder("crafted"), "bundle");
        var writer = new BundleWriter(root);
        foreach (var (relative, text) in _files)
        {
            System.IO.File.WriteAllText(writer.PathFor(relative), text.ToString());
        }

        System.IO.File.WriteAllText(writer.PathFor(BundlePaths.Log), $"2026-01-05T10:00:00.000Z INF capture of {Workload} on {Host} by login probe_user, application probe-app\n");
        var end = _phases.Count > 0 ? _phases[^1].EndUtc : Start;
        writer.WriteManifest(new BundleManifest
        {
            ToolVersion = "0.1.0-crafted",
            RunId = "crafted01",
            Host = Host,
            Os = "Crafted OS",
            LogicalCpus = LogicalCpus,
            Engine = Engine,
            ServerVersion = Engine == "postgres" ? "PostgreSQL 15.8" : "Microsoft SQL Server 2022",
            ServerProcess = ServerProcess,
            Workload = Workload,
            Options = new Dictionary<string, string> { ["database"] = "salesdb", ["login"] = "probe_user", ["application"] = "probe-app" },
            Configuration = Configuration,
            Phases = _phases,
            Collectors = _collectors,
            Status = _status,
            Reason = _reason,
            Trigger = _trigger,
            StartUtc = Start,
            EndUtc = end,
        }, hashFiles: true);
        return root;
    }

    private BundlePhase PhaseNamed(string name) => _phases.First(p => p.Name == name);

    private CraftedBundle Line(string relative, string? header, string line)
    {
        File(relative, header).Append(line).Append('\n');
        return this;
    }

    private StringBuilder File(string relative, string? header)
    {
        if (!_files.TryGetValue(relative, out var sb))
        {
            _files[relative] = sb = new StringBuilder();
            if (header is not null)
            {
                sb.Append(header).Append('\n');
            }
        }

        return sb;
    }

    private static string N(double v) => v.ToString("R", CultureInfo.InvariantCulture);
}
