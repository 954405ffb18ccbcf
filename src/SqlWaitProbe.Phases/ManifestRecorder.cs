using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;

namespace SqlWaitProbe.Phases;

/// <summary>
/// The manifest of a capture in progress: written at once with status <c>running</c>, rewritten after each
/// phase, and finished with the final status. Collector outcomes of all phases merge into one entry per
/// collector (worst status, summed losses, the first error with its phase).
/// </summary>
public sealed class ManifestRecorder
{
    private readonly Lock _gate = new();
    private readonly List<BundlePhase> _phases = [];
    private readonly Dictionary<string, BundleCollector> _collectors = new(StringComparer.Ordinal);
    private readonly List<string> _collectorOrder = [];
    private BundleManifest _current;

    /// <summary>Writes <paramref name="initial"/> with status <c>running</c>.</summary>
    public ManifestRecorder(BundleWriter writer, BundleManifest initial)
    {
        Writer = writer;
        _current = initial with { Status = BundleStatus.Running, Reason = null };
        Writer.WriteManifest(_current, hashFiles: false);
    }

    /// <summary>The bundle being written.</summary>
    public BundleWriter Writer { get; }

    /// <summary>The manifest as last written.</summary>
    public BundleManifest Current
    {
        get
        {
            lock (_gate)
            {
                return _current;
            }
        }
    }

    /// <summary>Changes fields (server version, options…) and rewrites the manifest.</summary>
    public void Update(Func<BundleManifest, BundleManifest> change)
    {
        lock (_gate)
        {
            _current = change(_current);
            Writer.WriteManifest(_current, hashFiles: false);
        }
    }

    /// <summary>Records a finished (or interrupted) phase and its collectors' outcomes, then rewrites the manifest with file hashes.</summary>
    public void AddPhase(BundlePhase phase, IEnumerable<CollectorOutcome> outcomes)
    {
        lock (_gate)
        {
            _phases.Add(phase);
            foreach (var outcome in outcomes)
            {
                Merge(phase.Name, outcome);
            }

            _current = Writer.WriteManifest(Snapshot(), hashFiles: true);
        }
    }

    /// <summary>Writes the final manifest: status, reason, end time and every file's hash.</summary>
    public BundleManifest Finish(string status, string? reason)
    {
        lock (_gate)
        {
            _current = Writer.WriteManifest(Snapshot() with { Status = status, Reason = reason, EndUtc = DateTime.UtcNow }, hashFiles: true);
            return _current;
        }
    }

    private BundleManifest Snapshot() => _current with
    {
        Phases = _phases.ToArray(),
        Collectors = _collectorOrder.Select(n => _collectors[n]).ToArray(),
        EndUtc = DateTime.UtcNow,
    };

    private void Merge(string phase, CollectorOutcome outcome)
    {
        var error = outcome.Error is null ? null : $"{phase}: {outcome.Error}";
        if (!_collectors.TryGetValue(outcome.Name, out var existing))
        {
            _collectorOrder.Add(outcome.Name);
            _collectors[outcome.Name] = new BundleCollector { Name = outcome.Name, Status = outcome.Status, LostEvents = outcome.LostEvents, Error = error };
            return;
        }

        _collectors[outcome.Name] = existing with
        {
            Status = Severity(outcome.Status) > Severity(existing.Status) ? outcome.Status : existing.Status,
            LostEvents = existing.LostEvents + outcome.LostEvents,
            Error = existing.Error ?? error,
        };
    }

    private static int Severity(string status) => status switch
    {
        CollectorStatus.Ok => 0,
        CollectorStatus.Skipped => 1,
        CollectorStatus.Partial => 2,
        _ => 3,
    };
}
