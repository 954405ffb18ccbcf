using System.Text.Json;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Text;

namespace SqlWaitProbe.TestSupport;

/// <summary>Edits a written bundle the way a person with a text editor would, then re-records its hashes so it verifies again.</summary>
public static class BundleEdit
{
    /// <summary>Recomputes the manifest's file list (sizes and SHA-256) after the test changed files on purpose.</summary>
    public static void Rehash(string root)
    {
        var path = Path.Combine(root, BundlePaths.Manifest);
        var manifest = CaptureBundle.ReadManifest(path);
        File.WriteAllText(path, JsonSerializer.Serialize(manifest with { Files = BundleWriter.HashFolder(root) }, ProbeJson.Options));
    }

    /// <summary>Rewrites manifest.json through a JSON edit of its text (for names no writer would produce).</summary>
    public static void EditManifest(string root, Func<string, string> edit)
    {
        var path = Path.Combine(root, BundlePaths.Manifest);
        File.WriteAllText(path, edit(File.ReadAllText(path)));
    }
}
