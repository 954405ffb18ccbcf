using System.Runtime.Versioning;
using Microsoft.Diagnostics.Symbols;
using SqlWaitProbe.Etl;
using SqlWaitProbe.Etl.Model;
using SqlWaitProbe.Windows.Etw;

namespace SqlWaitProbe.Windows.Symbols;

/// <summary>
/// Names functions at module + RVA with TraceEvent's symbol reader: each image's PDB is found by the identity the
/// trace carries for it (KernelTraceControl DbgID_RSDS: PDB name, GUID signature, age) on the symbol path, so the
/// machine that reads the trace need not have the images. Keeps the reader open while names are looked up.
/// </summary>
[SupportedOSPlatform("windows")]
public sealed class PdbSymbolLookup(SymbolOptions options, IProgress<string> progress) : IDisposable
{
    // One request that hangs must not take TraceEvent's default minute; the whole lookup has its own budget besides.
    private readonly SymbolReader _reader = new(TextWriter.Null, options.SymbolPath) { Options = options.ReaderOptions, ServerTimeout = RequestTimeout };

    /// <summary>The longest one symbol-server request may take.</summary>
    public static readonly TimeSpan RequestTimeout = TimeSpan.FromSeconds(15);
    private readonly Dictionary<(Guid Signature, int Age), NativeSymbolModule> _pdbs = [];
    private readonly Dictionary<(Guid, int, ulong), string?> _names = [];

    /// <summary>The lookup for <paramref name="modules"/> of <paramref name="trace"/>, and what happened.</summary>
    public (Func<EtlImage, ulong, string?>? Names, string Status) Lookup(EtlTraceReader trace, IReadOnlyList<string> modules,
        IReadOnlyDictionary<string, string> moduleFiles, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(trace);
        ArgumentNullException.ThrowIfNull(modules);
        var byModule = trace.Images.Where(i => i.PdbName is not null).ToLookup(i => EtwModuleNames.ModuleName(i.FilePath), StringComparer.Ordinal);
        var resolved = new List<string>();
        var missing = new List<string>();
        for (var i = 0; i < modules.Count; i++)
        {
            cancellationToken.ThrowIfCancellationRequested();
            var file = moduleFiles.GetValueOrDefault(modules[i], modules[i]);
            progress.Report(SymbolResolutionPlan.ProgressMessage(file, i + 1, modules.Count));
            var found = false;
            foreach (var image in byModule[modules[i]].DistinctBy(m => (m.PdbSignature, m.PdbAge)))
            {
                found |= Open(image, file);
            }

            (found ? resolved : missing).Add(modules[i]);
        }

        var status = resolved.Count > 0
            ? $"resolved for {string.Join(", ", resolved)} ({resolved.Count} of {modules.Count} modules){(missing.Count > 0 ? $"; no PDB found for {string.Join(", ", missing)}" : string.Empty)}"
            : $"not resolved: no PDB found for {string.Join(", ", missing.DefaultIfEmpty("any module"))} ({options.Describe()})";
        return (resolved.Count > 0 ? Name : null, status);
    }

    /// <inheritdoc />
    public void Dispose() => _reader.Dispose();

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

            _pdbs[(image.PdbSignature, image.PdbAge)] = _reader.OpenNativeSymbolFile(path);
            return true;
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            progress.Report($"no symbols for {file}: {e.Message}");
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
