using System.Globalization;
using System.IO.Compression;
using System.Text;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.Linux.Perf;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Linux.Tests.Perf;

/// <summary>
/// perf prints inlined functions as <c>ADDR name+off (inlined)</c>, without their module: the module is the one of the
/// real frame that closes the chain at the same address, when perf prints one, and is never taken from a neighbour.
/// </summary>
public sealed class PerfInlinedFrameTests
{
    private const string DwarfCapture = "perf-script/local__pg15-digest-2sessions-dwarf.perf.txt.gz";

    [Fact]
    public void No_module_is_named_inlined_and_leaf_module_shares_follow_the_addresses()
    {
        var profile = new PerfScriptReader().ReadProfile(TestData.Path(DwarfCapture));

        Assert.DoesNotContain(Enumerable.Range(0, profile.Frames.Count), id => profile.Frames[id].Module == "inlined");

        // Expected from the text itself: a sample's leaf line names its module, or, when it is an inlined line, the
        // real line with the same address that closes its chain does; a chain perf closed with no real line is [unknown].
        var expected = new Dictionary<string, long>(StringComparer.Ordinal);
        foreach (var (weight, lines) in Samples(TestData.Path(DwarfCapture)))
        {
            var leafAddress = Address(lines[0]);
            var module = lines.TakeWhile(l => Address(l) == leafAddress).Select(Module).FirstOrDefault(m => m != "inlined") ?? "[unknown]";
            expected[module] = expected.GetValueOrDefault(module) + weight;
        }

        var actual = new Dictionary<string, long>(StringComparer.Ordinal);
        foreach (var (_, stack, weight) in profile.Entries)
        {
            var module = profile.Frames[profile.Stacks.LeafFrameOf(stack)].Module;
            actual[module] = actual.GetValueOrDefault(module) + weight;
        }

        Assert.Equal(expected.OrderBy(e => e.Key, StringComparer.Ordinal), actual.OrderBy(e => e.Key, StringComparer.Ordinal));
        Assert.True(actual["libcrypto.so.3"] > profile.TotalWeight / 3, "libcrypto keeps its samples");
    }

    [Fact]
    public void An_inlined_chain_closed_by_a_real_frame_at_its_address_takes_that_module()
    {
        // Lines of the recorded capture: tcache_put is inlined into _int_free at the same address.
        var profile = Read("""
            postgres 20466 [000]  4696.900000:    2004008 cpu-clock:ppp: 
            	           965ce tcache_put+0x4ae (inlined)
            	           965ce _int_free+0x4ae (/usr/lib/x86_64-linux-gnu/libc.so.6)
            	          5cd3ce MemoryContextAllocZeroAligned+0x4e (/usr/lib/postgresql/15/bin/postgres)

            """);

        var frames = profile.FramesOf(profile.Entries.Single().StackId).ToArray();
        Assert.Equal(["postgres!MemoryContextAllocZeroAligned", "libc.so.6!_int_free", "libc.so.6!tcache_put"], frames.Select(f => f.QualifiedName));
    }

    [Fact]
    public void An_inlined_chain_without_a_real_frame_at_its_address_borrows_no_neighbour()
    {
        // Lines of the recorded capture: glibc's rwlock functions are all printed as inlined (perf's symbol is
        // pthread_rwlock_unlock@@GLIBC_2.34, the debug information's ___pthread_rwlock_unlock); their caller is in
        // libcrypto, and the root's caller _start in postgres: neither is their module.
        var profile = Read("""
            postgres 20466 [000]  4696.849434:    2004008 cpu-clock:ppp: 
            	           8f0af __pthread_rwlock_rdunlock+0x1f (inlined)
            	           8f0af ___pthread_rwlock_unlock+0x1f (inlined)
            	          23fb08 CRYPTO_THREAD_unlock+0x8 (/usr/lib/x86_64-linux-gnu/libcrypto.so.3)
            	           27249 __libc_start_call_main+0x79 (/usr/lib/x86_64-linux-gnu/libc.so.6)
            	           27304 __libc_start_main_impl+0x84 (inlined)
            	          1530e0 _start+0x20 (/usr/lib/postgresql/15/bin/postgres)

            """);

        var frames = profile.FramesOf(profile.Entries.Single().StackId).Select(f => f.QualifiedName).ToArray();
        Assert.Equal(
            ["postgres!_start", "[unknown]!__libc_start_main_impl", "libc.so.6!__libc_start_call_main", "libcrypto.so.3!CRYPTO_THREAD_unlock", "[unknown]!___pthread_rwlock_unlock", "[unknown]!__pthread_rwlock_rdunlock"],
            frames);
    }

    [Fact]
    public void An_inlined_kernel_address_is_the_kernel_and_folding_keeps_inferno_names()
    {
        // Constructed (no recorded kernel inline chain here): a kernel address belongs to the kernel whatever perf printed.
        const string text = """
            postgres 20466 [000]  4696.900000:    2004008 cpu-clock:ppp: 
            	ffffffff815a137b lru_add+0xbb (inlined)
            	ffffffff815a1473 __folio_batch_add_and_move+0x63 ([kernel.kallsyms])

            """;
        var profile = Read(text);
        var leaf = profile.Frames[profile.Stacks.LeafFrameOf(profile.Entries.Single().StackId)];
        Assert.Equal(new Frame("[kernel.kallsyms]", "lru_add", FrameKind.Kernel), leaf);

        var folded = new PerfScriptReader().Fold(new MemoryStream(Encoding.UTF8.GetBytes(text)), "inline.txt");
        Assert.Equal("postgres;__folio_batch_add_and_move;lru_add", Assert.Single(folded).Key);
    }

    private static StackProfile Read(string text) =>
        new PerfScriptReader().ReadProfile(new MemoryStream(Encoding.UTF8.GetBytes(text.Replace("\r\n", "\n", StringComparison.Ordinal))), "inline.txt");

    private static IEnumerable<(long Weight, List<string> Lines)> Samples(string path)
    {
        using var reader = new StreamReader(new GZipStream(File.OpenRead(path), CompressionMode.Decompress));
        long weight = 0;
        var lines = new List<string>();
        while (true)
        {
            var line = reader.ReadLine();
            if (line is null || line.Trim().Length == 0)
            {
                if (lines.Count > 0)
                {
                    yield return (weight, lines);
                    lines = new List<string>();
                }

                if (line is null)
                {
                    yield break;
                }
            }
            else if (char.IsWhiteSpace(line[0]))
            {
                lines.Add(line.Trim());
            }
            else
            {
                var fields = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
                weight = long.Parse(fields[^2], CultureInfo.InvariantCulture);
            }
        }
    }

    private static string Address(string line) => line[..line.IndexOf(' ', StringComparison.Ordinal)];

    private static string Module(string line)
    {
        var module = line[(line.LastIndexOf('(') + 1)..^1];
        return module == "inlined" ? module : module[(module.LastIndexOf('/') + 1)..];
    }
}
