using System.IO.Compression;
using System.Text;
using SqlWaitProbe.Analysis;
using SqlWaitProbe.Analysis.Tags;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Linux.Perf;
using SqlWaitProbe.Reporting.Speedscope;
using SqlWaitProbe.SqlServer.Xe;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.Windows.Pdh;
using SqlWaitProbe.Modules;

namespace SqlWaitProbe.Cli.Tests.Fuzz;

/// <summary>Mutated real inputs through every reader of user files: success or a bad-input error, nothing else.</summary>
[Trait("Category", "Fuzz")]
public class ReaderFuzzTests
{
    [Fact]
    public void Perf_script_reader_survives_mutations_of_plain_text()
    {
        var seeds = SmallFiles("perf-script", "*.txt", 20_000);
        var target = Path.Combine(TestData.TempFolder("probe-fuzz-perf"), "perf.txt");
        FuzzRunner.Run("perf-script", seeds, input =>
        {
            File.WriteAllBytes(target, input);
            new PerfScriptReader().ReadProfile(target);
            PerfScriptReader.Sniff(target);
        });
    }

    [Fact]
    public void Perf_script_reader_survives_mutations_of_gzip_files()
    {
        var seeds = SmallFiles("perf-script", "*.txt", 4_000).Select(Gzip)
            .Append(File.ReadAllBytes(TestData.Path("perf-script/local__pg15-digest-1session.perf.txt.gz")))
            .ToArray();
        var target = Path.Combine(TestData.TempFolder("probe-fuzz-perfgz"), "perf.script.gz");
        FuzzRunner.Run("perf-script-gz", seeds, input =>
        {
            File.WriteAllBytes(target, input);
            new PerfScriptReader().ReadProfile(target);
        }, iterations: Math.Max(1, FuzzRunner.Iterations / 3));
    }

    [Fact]
    public void Perf_script_folder_survives_mutations()
    {
        var seeds = SmallFiles("perf-script", "*.txt", 20_000);
        var target = Path.Combine(TestData.TempFolder("probe-fuzz-perffold"), "perf.txt");
        FuzzRunner.Run("perf-fold", seeds, input =>
        {
            File.WriteAllBytes(target, input);
            new PerfScriptReader().Fold(target);
        }, iterations: Math.Max(1, FuzzRunner.Iterations / 3));
    }

    [Fact]
    public void Xel_reader_survives_mutations()
    {
        var seed = File.ReadAllBytes(TestData.Path("xel/sqltoolsservice__TestXel_0.xel"));
        var target = Path.Combine(TestData.TempFolder("probe-fuzz-xel"), "fuzz.xel");
        FuzzRunner.Run("xel", [seed], input =>
        {
            File.WriteAllBytes(target, input);
            var before = GC.GetAllocatedBytesForCurrentThread();
            try
            {
                foreach (var e in XelFileReader.Read(target))
                {
                    _ = e.Name;
                }
            }
            finally
            {
                // A size field a mutation made huge must not become a huge buffer: the review's 240 mutated files
                // each stayed within 46 MB resident for the whole process; one file allocates no more than that.
                var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
                if (allocated > XelAllocationLimit)
                {
                    throw new InvalidOperationException($"reading a {input.Length}-byte .xel allocated {allocated >> 20} MiB");
                }
            }
        }, iterations: Math.Max(1, FuzzRunner.Iterations / 5));
    }

    private const long XelAllocationLimit = 46L << 20;

    [Fact]
    public void Stacktags_importer_survives_mutations()
    {
        var seeds = Directory.GetFiles(TestData.Path("stacktags")).Order(StringComparer.Ordinal).Select(File.ReadAllBytes).ToArray();
        FuzzRunner.Run("stacktags", seeds, input => StackTagsFile.Import(new MemoryStream(input), "fuzz.stacktags"));
    }

    [Fact]
    public void Pdh_csv_reader_survives_mutations()
    {
        var seed = Encoding.UTF8.GetBytes(
            "\"(PDH-CSV 4.0) (Pacific Daylight Time)(420)\",\"\\\\DBHOST\\Processor(_Total)\\% Processor Time\",\"\\\\DBHOST\\System\\Context Switches/sec\",\"\\\\DBHOST\\Memory\\Available MBytes\"\r\n"
            + "\"03/14/2026 02:00:00.117\",\" \",\" \",\"1024\"\r\n"
            + "\"03/14/2026 02:00:01.120\",\"41.863212585449219\",\"22731.402810462952\",\"1023\"\r\n"
            + "\"03/14/2026 02:00:02.121\",\"\",\"21000\",\"1020.5\"\r\n");
        var utc = Encoding.UTF8.GetBytes(
            "\"" + PdhCsvWriter.UtcHeaderCell + "\",\"\\\\H\\Processor(_Total)\\% Processor Time\"\n"
            + "\"01/05/2026 10:00:00.000\",\"12.5\"\n\"01/05/2026 10:00:01.000\",\"13\"\n");
        FuzzRunner.Run("pdh-csv", [seed, utc], input =>
            PdhCsvReader.Read(new StreamReader(new MemoryStream(input), Encoding.UTF8), "fuzz.csv"));
    }

    [Fact]
    public void Speedscope_reader_survives_mutations()
    {
        var seeds = Directory.GetFiles(TestData.Path("speedscope"), "*.json").Order(StringComparer.Ordinal).Select(File.ReadAllBytes).ToArray();
        FuzzRunner.Run("speedscope", seeds, input => SpeedscopeWriter.Read(new MemoryStream(input)));
    }

    [Theory]
    [InlineData("executions.csv")]
    [InlineData("sessions.csv")]
    [InlineData("waits.csv")]
    [InlineData("series.csv")]
    [InlineData("cpu/timeline.csv")]
    [InlineData("cpu/sampling.json")]
    [InlineData("cpu/stacks.folded")]
    [InlineData("overhead.json")]
    public void Bundle_analysis_survives_mutations_of(string file)
    {
        var root = new CraftedBundle("postgres", "postgres")
            .Phase("baseline", 1, 20, 4.5).Phase("load", 4, 20, 9.25)
            .Sessions("baseline", cpuMs: 60, runQueueMs: 2).Sessions("load", cpuMs: 500, runQueueMs: 40)
            .Wait("baseline", "IO:DataFileRead", 3).Wait("load", "LWLock:WALWrite", 11.7).Wait("load", "IO:DataFileRead", 3.3)
            .Series("load", "os.cpu_pct", 0, 55.5).Series("load", "os.cpu_pct", 1, 61)
            .Stack("load", "postgres;main;ExecutorRun;pg_digest;EVP_Digest", 80).Stack("load", "postgres;main;[k] do_syscall_64", 20)
            .Timeline("load", 0, "libcrypto.so.3", false, 50).Timeline("load", 1, "[kernel]", true, 20)
            .Sampling("load", 100, 997, 2, 4)
            .Overhead("baseline", 99, 100).Overhead("load", 97, 100)
            .Write();
        var path = Path.Combine(root, BundlePaths.Phase("load"), file);
        var seed = File.ReadAllBytes(path);
        FuzzRunner.Run("bundle-" + file.Replace('/', '-'), [seed], input =>
        {
            File.WriteAllBytes(path, input);
            using var bundle = CaptureBundle.Open(root);
            BundleAnalyzer.Analyze(bundle, Registered.Analysis);
        }, iterations: Math.Max(1, FuzzRunner.Iterations / 10));
    }

    private static byte[][] SmallFiles(string folder, string pattern, long maxBytes) =>
        Directory.GetFiles(TestData.Path(folder), pattern)
            .Where(f => new FileInfo(f).Length is > 0 && new FileInfo(f).Length < maxBytes)
            .Order(StringComparer.Ordinal)
            .Select(File.ReadAllBytes)
            .ToArray();

    private static byte[] Gzip(byte[] data)
    {
        using var buffer = new MemoryStream();
        using (var gzip = new GZipStream(buffer, CompressionLevel.Fastest, leaveOpen: true))
        {
            gzip.Write(data);
        }

        return buffer.ToArray();
    }
}
