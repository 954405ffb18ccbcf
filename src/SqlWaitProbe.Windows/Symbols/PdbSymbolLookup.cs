using Microsoft.Diagnostics.Symbols;
using SqlWaitProbe.Core.Secrets;
using SqlWaitProbe.Etl;
using SqlWaitProbe.Etl.Model;
using SqlWaitProbe.Windows.Etw;

namespace SqlWaitProbe.Windows.Symbols;

/// <summary>
/// Names functions at module + RVA with TraceEvent's symbol reader: each image's PDB is found by the identity the
/// trace carries for it (KernelTraceControl DbgID_RSDS: PDB name, GUID signature, age) on the symbol path, so the
/// machine that reads the trace need not have the images. Before the first lookup each HTTP symbol server is asked once
/// (<see cref="SymbolServerCheck"/>); one that does not answer is left out for this lookup and its cache read alone. The
/// reader's own log goes to <c>capture.log</c> (<see cref="TraceEventLog"/>). Finding a PDB runs on any OS; opening one
/// needs Windows (DIA). Keeps the reader open while names are looked up.
/// </summary>
public sealed class PdbSymbolLookup : IDisposable
{
    private readonly SymbolOptions _options;
    private readonly IProgress<string> _progress;
    private readonly TimeSpan _serverCheckTimeout;
    private readonly SymbolReader _reader;
    private readonly Dictionary<(Guid Signature, int Age), NativeSymbolModule> _pdbs = [];
    private readonly Dictionary<(Guid, int, ulong), string?> _names = [];

    /// <summary>
    /// A lookup on <paramref name="options"/>' symbol path, reporting to <paramref name="progress"/>; the reader logs to
    /// <paramref name="readerLog"/> (default: the probe's log), and each symbol server has <paramref name="serverCheckTimeout"/>
    /// (default <see cref="SymbolServerCheck.DefaultTimeout"/>) to answer the check.
    /// </summary>
    public PdbSymbolLookup(SymbolOptions options, IProgress<string> progress, TextWriter? readerLog = null, TimeSpan? serverCheckTimeout = null)
    {
        _options = options ?? throw new ArgumentNullException(nameof(options));
        _progress = progress ?? throw new ArgumentNullException(nameof(progress));
        _serverCheckTimeout = serverCheckTimeout ?? SymbolServerCheck.DefaultTimeout;

        // One request that hangs must not take TraceEvent's default minute; the whole lookup has its own budget besides.
        _reader = new SymbolReader(readerLog ?? new TraceEventLog("symbol reader"), options.SymbolPath) { Options = options.ReaderOptions, ServerTimeout = RequestTimeout };
    }

    /// <summary>The longest one symbol-server request may take.</summary>
    public static readonly TimeSpan RequestTimeout = TimeSpan.FromSeconds(15);

    /// <summary>The lookup for <paramref name="modules"/> of <paramref name="trace"/>, and what happened.</summary>
    public (Func<EtlImage, ulong, string?>? Names, string Status) Lookup(EtlTraceReader trace, IReadOnlyList<string> modules,
        IReadOnlyDictionary<string, string> moduleFiles, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(trace);
        ArgumentNullException.ThrowIfNull(modules);
        var skipped = LeaveOutUnreachableServers(cancellationToken);
        var byModule = trace.Images.Where(i => i.PdbName is not null).ToLookup(i => EtwModuleNames.ModuleName(i.FilePath), StringComparer.Ordinal);
        var resolved = new List<string>();
        var missing = new List<string>();
        for (var i = 0; i < modules.Count; i++)
        {
            cancellationToken.ThrowIfCancellationRequested();
            var file = moduleFiles.GetValueOrDefault(modules[i], modules[i]);
            _progress.Report(SymbolResolutionPlan.ProgressMessage(file, i + 1, modules.Count));
            var found = false;
            foreach (var image in byModule[modules[i]].DistinctBy(m => (m.PdbSignature, m.PdbAge)))
            {
                found |= Open(image, file);
            }

            (found ? resolved : missing).Add(modules[i]);
        }

        var status = resolved.Count > 0
            ? $"resolved for {string.Join(", ", resolved)} ({resolved.Count} of {modules.Count} modules){(missing.Count > 0 ? $"; no PDB found for {string.Join(", ", missing)}" : string.Empty)}"
            : $"not resolved: no PDB found for {string.Join(", ", missing.DefaultIfEmpty("any module"))} ({CredentialRules.Redact(_options.Describe())})";
        return (resolved.Count > 0 ? Name : null, skipped is null ? status : $"{status}; {skipped}");
    }

    /// <inheritdoc />
    public void Dispose() => _reader.Dispose();

    // Asks each HTTP server once; those that do not answer keep only their cache for the rest of this lookup. Returns what
    // Data quality says of it, or null when every server answered (or none is asked: offline, or local folders only).
    private string? LeaveOutUnreachableServers(CancellationToken cancellationToken)
    {
        if (_options.Offline)
        {
            return null;
        }

        var servers = SymbolServerCheck.Servers(_options.SymbolPath);
        var problems = new List<(string Server, string Problem)>();
        foreach (var server in servers)
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (SymbolServerCheck.Problem(server, _serverCheckTimeout, cancellationToken) is { } problem)
            {
                problems.Add((server, problem));
            }
        }

        if (problems.Count == 0)
        {
            return null;
        }

        var dead = problems.Select(p => p.Server).ToArray();
        _reader.SymbolPath = SymbolServerCheck.Without(_options.SymbolPath, dead);
        if (problems.Count == servers.Count)
        {
            // No server left: UNC shares on the path are most likely out of reach too, and each would stall as long.
            _reader.Options |= SymbolReaderOptions.CacheOnly;
        }

        var what = string.Join("; ", problems.Select(p => p.Problem));
        _progress.Report($"symbol server check: {what}; no symbols are downloaded from {(problems.Count == 1 ? "it" : "them")} for this phase, only PDBs already in the cache are read");
        return $"downloads skipped for this phase: {what} when checked before the first lookup, so only PDBs already in the local cache were read "
            + "(the trace is kept, cpu/trace.etl: PerfView or WPA name the functions later)";
    }

    private bool Open(EtlImage image, string file)
    {
        if (_pdbs.ContainsKey((image.PdbSignature, image.PdbAge)))
        {
            return true;
        }

        try
        {
            var path = _reader.FindSymbolFilePath(image.PdbName!, image.PdbSignature, image.PdbAge);
            if (path is null)
            {
                return false;
            }

            if (!OperatingSystem.IsWindows())
            {
                // DIA, which reads native PDBs, is a Windows library: the PDB is found, its names are read on Windows.
                _progress.Report($"found {Path.GetFileName(path)} for {file}; its names are read on Windows only");
                return false;
            }

            _pdbs[(image.PdbSignature, image.PdbAge)] = _reader.OpenNativeSymbolFile(path);
            return true;
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            _progress.Report($"no symbols for {file}: {CredentialRules.Redact(e.Message)}");
            return false;
        }
    }

    private string? Name(EtlImage image, ulong rva)
    {
        var key = (image.PdbSignature, image.PdbAge, rva);
        if (!_names.TryGetValue(key, out var name))
        {
            name = _pdbs.TryGetValue((image.PdbSignature, image.PdbAge), out var pdb) && rva <= uint.MaxValue ? pdb.FindNameForRva((uint)rva) : null;
            _names[key] = name = string.IsNullOrEmpty(name) ? null : name;
        }

        return name;
    }
}
