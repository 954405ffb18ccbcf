using System.IO.Compression;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

public sealed class AnalyzeCommandTests
{
    internal static CraftedBundle Scenario() => new CraftedBundle()
        .Phase("baseline", 1, 50, 10).Sessions("baseline", 450).Wait("baseline", "SOS_SCHEDULER_YIELD", 20)
        .Stack("baseline", "sqlservr;sqllang!CStmtQuery::Execute;sqldk!SOS_MemoryWorkSpace::Alloc", 90)
        .Stack("baseline", "sqlservr;sqllang!CStmtQuery::Execute;bcryptprimitives!SymCryptSha256", 10)
        .Phase("load", 2, 50, 30).Sessions("load", 2800).Wait("load", "SOS_SCHEDULER_YIELD", 100)
        .Stack("load", "sqlservr;sqllang!CStmtQuery::Execute;sqldk!SOS_MemoryWorkSpace::Alloc", 40)
        .Stack("load", "sqlservr;sqllang!CStmtQuery::Execute;sqldk!SOS_MemoryWorkSpace::Alloc;ntoskrnl!MiZeroPage_[k]", 60);

    [Fact]
    public async Task Analyze_prints_findings_and_report_paths_and_writes_the_report_into_the_bundle()
    {
        var root = Scenario().Write();

        var (exit, stdout, stderr) = await InProcessProbe.RunAsync("analyze", root, "--focus", "sqldk!SOS_MemoryWorkSpace::*");

        Assert.True(exit == 0, stderr);
        Assert.Contains("[critical] Throughput at 2 sessions is 33% of ideal", stdout);
        Assert.Contains(Path.Combine(root, "report", "report.html"), stdout);
        var md = File.ReadAllText(Path.Combine(root, "report", "report.md"));
        Assert.Contains("## Focus `sqldk!SOS_MemoryWorkSpace::*` in load", md);
        Assert.Contains("| sqllang!CStmtQuery::Execute | 100% |", md);
        Assert.Contains("| ntoskrnl!MiZeroPage | 60% |", md);
    }

    [Fact]
    public async Task Analyze_reads_a_zipped_bundle_and_prints_json()
    {
        var root = Scenario().Write();
        var zip = Path.Combine(Path.GetDirectoryName(root)!, "capture.zip");
        ZipFile.CreateFromDirectory(root, zip);

        var (exit, stdout, stderr) = await InProcessProbe.RunAsync("analyze", zip, "--format", "json");

        Assert.True(exit == 0, stderr);
        Assert.StartsWith("{", stdout.TrimStart());
        Assert.Contains("\"findings\"", stdout);
        Assert.True(File.Exists(Path.Combine(Path.GetDirectoryName(root)!, "capture-report", "findings.json")));
    }

    [Fact]
    public async Task Analyze_adds_imported_stack_tags_and_exports_both_forms()
    {
        var root = Scenario().Write();
        var tags = Path.Combine(Path.GetDirectoryName(root)!, "mine.stacktags");
        File.WriteAllText(tags, "<Tag Name=\"\"><Tag Name=\"Zeroing\" Priority=\"500\"><Entrypoint Module=\"ntoskrnl.exe\" Method=\"MiZero*\"/></Tag></Tag>");
        var export = Path.Combine(Path.GetDirectoryName(root)!, "tags");

        var (exit, _, stderr) = await InProcessProbe.RunAsync("analyze", root, "--stacktags", tags, "--export-stacktags", export);

        Assert.True(exit == 0, stderr);
        Assert.Contains("| Zeroing | 60% |", File.ReadAllText(Path.Combine(root, "report", "report.md")));
        Assert.Contains("<Entrypoint Module=\"sqldk\" Method=\"SOS_MemoryWorkSpace::*\" />", File.ReadAllText(Path.Combine(export, "sqlserver.stacktags")));
        Assert.Contains("libcrypto.so*!EVP_*->OpenSSL EVP/SHA-256", File.ReadAllText(Path.Combine(export, "postgres.grouppats.txt")));
        Assert.True(File.Exists(Path.Combine(export, "mine.stacktags")));
    }

    [Fact]
    public async Task Analyze_works_on_an_interrupted_bundle_and_says_so()
    {
        var root = Scenario().Status(BundleStatus.Interrupted, "ctrl-c").Write();

        var (exit, stdout, stderr) = await InProcessProbe.RunAsync("analyze", root);

        Assert.True(exit == 0, stderr);
        Assert.StartsWith("note: this capture is interrupted (ctrl-c)", stdout);
    }

    public static TheoryData<string, string> BadInputs => new()
    {
        { "broken-manifest", "manifest is not valid JSON" },
        { "truncated-zip", "not a zip archive, or the archive is corrupt or truncated" },
        { "garbage-stacks", "stacks.folded:2:" },
        { "overflowing-stacks", "stacks.folded:2: the counts add up to more than 9223372036854775807" },
        { "infinite-count", "stacks.folded:2: the count 'Infinity' is not a finite, non-negative number" },
        { "huge-count", "stacks.folded:1: the count '1e308' is not a finite, non-negative number" },
        { "negative-timeline-weight", "timeline.csv:2: column 'weight' holds '-5', which is not a count" },
        { "bad-stacktags", "mine.stacktags:4: not valid stack tags XML" },
        { "bad-executions", "executions.csv:3: column 'end_ms' holds 'soon'" },
    };

    [Theory]
    [MemberData(nameof(BadInputs))]
    public async Task Bad_input_exits_2_with_at_most_three_lines_and_no_stack_trace(string kind, string expected)
    {
        var root = Scenario().Write();
        var args = new List<string> { "analyze", root };
        switch (kind)
        {
            case "broken-manifest":
                File.WriteAllText(Path.Combine(root, "manifest.json"), "{ \"schemaVersion\": 1, \"phases\": [");
                break;
            case "truncated-zip":
                var zip = Path.Combine(Path.GetDirectoryName(root)!, "cut.zip");
                ZipFile.CreateFromDirectory(root, zip);
                var bytes = File.ReadAllBytes(zip);
                File.WriteAllBytes(zip, bytes[..(bytes.Length / 2)]);
                args[1] = zip;
                break;
            case "garbage-stacks":
                File.WriteAllText(Path.Combine(root, "phases", "load", "cpu", "stacks.folded"), "sqlservr;a!b 3\nthis line has no count\n");
                BundleEdit.Rehash(root);
                break;
            case "overflowing-stacks":
                File.WriteAllText(Path.Combine(root, "phases", "load", "cpu", "stacks.folded"), "postgres;a;b 9223372036854775807\npostgres;a;b 9223372036854775807\n");
                BundleEdit.Rehash(root);
                break;
            case "infinite-count":
                File.WriteAllText(Path.Combine(root, "phases", "load", "cpu", "stacks.folded"), "postgres;a;b 3\npostgres;a;c Infinity\n");
                BundleEdit.Rehash(root);
                break;
            case "huge-count":
                File.WriteAllText(Path.Combine(root, "phases", "load", "cpu", "stacks.folded"), "postgres;a;b 1e308\n");
                BundleEdit.Rehash(root);
                break;
            case "negative-timeline-weight":
                File.WriteAllText(Path.Combine(root, "phases", "load", "cpu", "timeline.csv"), "second,process,module,kernel,weight\n0,sqlservr,sqlmin.dll,0,-5\n");
                BundleEdit.Rehash(root);
                break;
            case "bad-stacktags":
                var tags = Path.Combine(Path.GetDirectoryName(root)!, "mine.stacktags");
                File.WriteAllText(tags, "<Tag Name=\"\">\n<Tag Name=\"x\">\n<Entrypoint Module=\"a\" Method=\"b\">\n</Tag></Tag>");
                args.AddRange(["--stacktags", tags]);
                break;
            case "bad-executions":
                File.WriteAllLines(Path.Combine(root, "phases", "baseline", "executions.csv"),
                    ["session,start_ms,end_ms,rows,error", "1,0,10,1,", "1,5,soon,1,"]);
                BundleEdit.Rehash(root);
                break;
        }

        var (exit, _, stderr) = await InProcessProbe.RunAsync([.. args]);

        Assert.Equal(2, exit);
        Assert.True(stderr.Contains(expected, StringComparison.Ordinal), stderr);
        Assert.True(stderr.Trim().Split('\n').Length <= 3, stderr);
        Assert.DoesNotContain("   at ", stderr);
    }
}
