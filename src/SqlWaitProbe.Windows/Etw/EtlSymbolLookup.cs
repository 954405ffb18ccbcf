using SqlWaitProbe.Etl;
using SqlWaitProbe.Etl.Model;

namespace SqlWaitProbe.Windows.Etw;

/// <summary>
/// Looks up function names for the modules worth it (most sampled first), by each image's PDB identity in the trace.
/// Returns the lookup, or null when none resolved, and what happened in words for Data quality.
/// </summary>
/// <param name="reader">The trace, read once: its images carry their PDB identities.</param>
/// <param name="modules">Module names to resolve, in order.</param>
/// <param name="moduleFiles">Module name → image file name, for messages.</param>
/// <param name="cancellationToken">Stops downloads (Ctrl+C keeps module-level frames).</param>
public delegate (Func<EtlImage, ulong, string?>? Names, string Status) EtlSymbolLookup(
    EtlTraceReader reader, IReadOnlyList<string> modules, IReadOnlyDictionary<string, string> moduleFiles, CancellationToken cancellationToken);
