using System.Diagnostics;
using System.IO.Compression;
using System.Text;

namespace SqlWaitProbe.TestSupport;

/// <summary>
/// The corpus of hostile and damaged bundles (docs/reliability.md): small ones are built from a crafted bundle
/// on the fly, large ones (the zip bomb, many entries) are generated here rather than stored. Each returns the
/// path to give <c>probe analyze</c>.
/// </summary>
public static class HostileCorpus
{
    private const string Minimal = """{"schemaVersion": 1, "engine": "postgres", "status": "complete", "startUtc": "2026-01-05T10:00:00Z", "options": {}, "collectors": [], "files": [], "phases": PHASES}""";

    /// <summary>Every kind this corpus makes.</summary>
    public static IReadOnlyList<string> Kinds { get; } =
    [
        "phase-escapes", "phase-absolute", "file-escapes", "empty-manifest", "manifest-without-phases", "manifest-wrong-type",
        "manifest-duplicate-key", "manifest-keys-differing-in-case", "manifest-schema-version-in-other-case", "duplicate-phase", "symlink-outside", "symlinked-folder", "hard-link", "truncated-sessions",
        "truncated-executions", "unlisted-file", "zip-dotdot-inside", "zip-two-manifests", "zip-file-and-folder", "zip-symlink",
        "zip-bomb", "zip-many-entries", "long-line",
    ];

    /// <summary>A crafted bundle with two phases, sessions, waits and stacks.</summary>
    public static CraftedBundle Healthy() => new CraftedBundle("postgres", "postgres", "hashbytes")
        .Phase("baseline", 1, 40, 10).Sessions("baseline", 380).Wait("baseline", "LWLock:BufferContent", 10)
        .Stack("baseline", "postgres;postgres!ExecScan;postgres!pg_sha256", 90)
        .Phase("load", 2, 40, 20).Sessions("load", 1500).Wait("load", "LWLock:BufferContent", 80)
        .Stack("load", "postgres;postgres!ExecScan;postgres!pg_sha256", 160);

    /// <summary>Makes one hostile bundle of <paramref name="kind"/> under <paramref name="folder"/>.</summary>
    public static string Make(string kind, string folder)
    {
        var root = Healthy().Write(folder);
        var manifest = Path.Combine(root, "manifest.json");
        var outside = Path.Combine(folder, "outside.csv");
        File.WriteAllText(outside, "session,backend_pid,db_session_id,cpu_ms,run_queue_ms\n1,1,1,999999,\n");
        switch (kind)
        {
            case "phase-escapes":
                BundleEdit.EditManifest(root, t => t.Replace("\"name\": \"load\"", "\"name\": \"../../escaped/y\"", StringComparison.Ordinal));
                return root;
            case "phase-absolute":
                BundleEdit.EditManifest(root, t => t.Replace("\"name\": \"load\"", "\"name\": \"/tmp/x/y\"", StringComparison.Ordinal));
                return root;
            case "file-escapes":
                BundleEdit.EditManifest(root, t => t.Replace("\"path\": \"capture.log\"", "\"path\": \"../capture.log\"", StringComparison.Ordinal));
                return root;
            case "empty-manifest":
                File.WriteAllText(manifest, "{}");
                return root;
            case "manifest-without-phases":
                File.WriteAllText(manifest, Minimal.Replace(", \"phases\": PHASES", "", StringComparison.Ordinal));
                return root;
            case "manifest-wrong-type":
                File.WriteAllText(manifest, Minimal.Replace("PHASES", "\"load\"", StringComparison.Ordinal));
                return root;
            case "manifest-duplicate-key":
                File.WriteAllText(manifest, Minimal.Replace("PHASES", "[]", StringComparison.Ordinal).Replace("{\"schemaVersion\": 1,", "{\"schemaVersion\": 1, \"schemaVersion\": 1,", StringComparison.Ordinal));
                return root;
            case "manifest-keys-differing-in-case":
                BundleEdit.EditManifest(root, t => t.Replace("\"engine\": \"postgres\",", "\"engine\": \"postgres\", \"Engine\": \"sqlserver\",", StringComparison.Ordinal));
                return root;
            case "manifest-schema-version-in-other-case":
                BundleEdit.EditManifest(root, t => t.Replace("\"schemaVersion\": 1,", "\"schemaVersion\": 1, \"SchemaVersion\": 99,", StringComparison.Ordinal));
                return root;
            case "duplicate-phase":
                File.WriteAllText(manifest, Minimal.Replace("PHASES", """[{"name": "load", "threads": 1}, {"name": "load", "threads": 2}]""", StringComparison.Ordinal));
                return root;
            case "symlink-outside":
                var sessions = Path.Combine(root, "phases", "load", "sessions.csv");
                File.Delete(sessions);
                File.CreateSymbolicLink(sessions, outside);
                return root;
            case "symlinked-folder":
                var cpu = Path.Combine(root, "phases", "load", "cpu");
                var elsewhere = Path.Combine(folder, "elsewhere");
                Directory.Move(cpu, elsewhere);
                Directory.CreateSymbolicLink(cpu, elsewhere);
                return root;
            case "hard-link":
                var target = Path.Combine(root, "phases", "load", "sessions.csv");
                File.Delete(target);
                Run("ln", outside, target);
                return root;
            case "truncated-sessions":
                Truncate(Path.Combine(root, "phases", "load", "sessions.csv"));
                return root;
            case "truncated-executions":
                Truncate(Path.Combine(root, "phases", "baseline", "executions.csv"));
                return root;
            case "unlisted-file":
                File.Copy(outside, Path.Combine(root, "phases", "load", "extra.csv"));
                return root;
            case "long-line":
                File.AppendAllText(Path.Combine(root, "phases", "load", "executions.csv"), "1," + new string('7', 2 << 20) + ",1,1,\n");
                BundleEdit.Rehash(root);
                return root;
            default:
                return MakeZip(kind, root, folder);
        }
    }

    private static string MakeZip(string kind, string root, string folder)
    {
        var zip = Path.Combine(folder, kind + ".zip");
        ZipFile.CreateFromDirectory(root, zip);
        using (var archive = ZipFile.Open(zip, ZipArchiveMode.Update))
        {
            switch (kind)
            {
                case "zip-dotdot-inside":
                    Entry(archive, "phases/x/../../evilphase/executions.csv", "session,start_ms,end_ms\n");
                    break;
                case "zip-two-manifests":
                    Entry(archive, "manifest.json", "{}");
                    break;
                case "zip-file-and-folder":
                    Entry(archive, "phases/load", "a file where a folder is");
                    break;
                case "zip-symlink":
                    archive.GetEntry("phases/load/sessions.csv")!.Delete();
                    var link = archive.CreateEntry("phases/load/sessions.csv");
                    link.ExternalAttributes = unchecked((int)(0xA1FFu << 16));
                    using (var w = new StreamWriter(link.Open()))
                    {
                        w.Write("/etc/shadow");
                    }

                    break;
                case "zip-bomb":
                    // 256 MiB of zeros deflates about 1000:1; scripts/make-zip-bomb.sh writes the 2 GiB one of the report.
                    archive.GetEntry("phases/load/executions.csv")!.Delete();
                    using (var s = archive.CreateEntry("phases/load/executions.csv", CompressionLevel.SmallestSize).Open())
                    {
                        var zeros = new byte[1 << 20];
                        for (var i = 0; i < 256; i++)
                        {
                            s.Write(zeros);
                        }
                    }

                    break;
                case "zip-many-entries":
                    for (var i = 0; i <= 20_000; i++)
                    {
                        archive.CreateEntry($"phases/load/n{i}.txt", CompressionLevel.NoCompression);
                    }

                    break;
                default:
                    throw new ArgumentException($"no hostile bundle called {kind}", nameof(kind));
            }
        }

        return zip;
    }

    private static void Entry(ZipArchive archive, string name, string text)
    {
        using var w = new StreamWriter(archive.CreateEntry(name).Open(), new UTF8Encoding(false));
        w.Write(text);
    }

    private static void Truncate(string file)
    {
        using var stream = new FileStream(file, FileMode.Open, FileAccess.Write);
        stream.SetLength(stream.Length / 2);
    }

    private static void Run(string program, params string[] args)
    {
        using var process = Process.Start(new ProcessStartInfo(program, args) { UseShellExecute = false })!;
        process.WaitForExit();
        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException($"{program} failed");
        }
    }
}
