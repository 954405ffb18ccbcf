using SqlWaitProbe.Core.Workloads;

namespace SqlWaitProbe.Core.Engines;

/// <summary>What an engine watches in attach mode.</summary>
/// <param name="Sessions">The sessions found when the window opens (empty when the engine filters server-side).</param>
/// <param name="Watching">What is watched, for the progress line (e.g. <c>2 session(s)</c>).</param>
/// <param name="ManifestOptions">Settings to record in the manifest (e.g. the backend pids found).</param>
public sealed record AttachWindow(IReadOnlyList<WorkloadSessionInfo> Sessions, string Watching, IReadOnlyDictionary<string, string> ManifestOptions);
