using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Core.Tests.Stacks;

public class FoldedStackFormatTests
{
    [Fact]
    public void Bundle_form_round_trips_modules_kinds_and_weights()
    {
        const string text = "postgres;postgres!main;libcrypto.so.3!EVP_Digest;[kernel.kallsyms]!asm_exc_page_fault_[k] 12\n"
            + "java;perf-12.map!Interpreter_[j] 3\n";
        var profile = new StackProfile();
        FoldedStackFormat.ReadInto(new StringReader(text), "in.folded", profile, firstFrameIsProcess: true);

        Assert.Equal(15, profile.TotalWeight);
        var (process, stack, weight) = profile.Entries.Single(e => e.Process == "postgres");
        Assert.Equal(12, weight);
        var frames = profile.FramesOf(stack).ToArray();
        Assert.Equal(new Frame("libcrypto.so.3", "EVP_Digest", FrameKind.User), frames[1]);
        Assert.Equal(FrameKind.Kernel, frames[2].Kind);
        Assert.Equal("[kernel.kallsyms]", frames[2].Module);

        var written = new StringWriter();
        FoldedStackFormat.Write(profile, written);
        Assert.Equal(text.Split('\n').Where(l => l.Length > 0).OrderBy(l => l), written.ToString().Split('\n').Where(l => l.Length > 0).OrderBy(l => l));
    }

    [Fact]
    public void Identical_stacks_merge_and_are_interned_once()
    {
        var profile = new StackProfile();
        var text = string.Concat(Enumerable.Repeat("p;a;b;c 1\np;a;b;d 2\n", 10_000));
        FoldedStackFormat.ReadInto(new StringReader(text), "in.folded", profile, firstFrameIsProcess: true);

        Assert.Equal(30_000, profile.TotalWeight);
        Assert.Equal(2, profile.Entries.Count());
        Assert.Equal(4, profile.Frames.Count);
        Assert.Equal(5, profile.Stacks.Count);
    }

    [Theory]
    [InlineData("a;b;c", "has no count")]
    [InlineData("a;b;c x12", "is not a finite, non-negative number")]
    [InlineData("a;b;c NaN", "'NaN' is not a finite, non-negative number")]
    [InlineData("a;b;c Infinity", "'Infinity' is not a finite, non-negative number")]
    [InlineData("a;b;c 1e308", "'1e308' is not a finite, non-negative number")]
    [InlineData("a;b;c 9223372036854775808", "of at most 9223372036854775807")]
    [InlineData("a;b;c -5", "'-5' is not a finite, non-negative number")]
    [InlineData("a;b;c 9223372036854775807", "the counts add up to more than 9223372036854775807")]
    [InlineData("a;b;c ", "has no count")]
    public void Malformed_lines_name_file_and_line(string line, string expected)
    {
        var e = Assert.Throws<BadInputException>(() =>
            FoldedStackFormat.ReadInto(new StringReader("ok;frame 1\n" + line + "\n"), "stacks.txt", new StackProfile(), false));
        Assert.Equal("stacks.txt", e.File);
        Assert.Equal(2, e.Line);
        Assert.Contains(expected, e.Message);
        Assert.StartsWith("stacks.txt:2: ", e.OneLine);
    }

    [Fact]
    public void Fractional_counts_of_differential_files_are_accepted()
    {
        var profile = new StackProfile();
        FoldedStackFormat.ReadInto(new StringReader("a;b 2.6\n"), "f", profile, false);
        Assert.Equal(3, profile.TotalWeight);
    }

    [Fact]
    public void Counts_summing_to_the_largest_64_bit_count_are_kept_and_one_more_is_refused_with_its_line()
    {
        var profile = new StackProfile();
        FoldedStackFormat.ReadInto(new StringReader("postgres;a;b 9223372036854775806\npostgres;a;b 1\n"), "f", profile, true);
        Assert.Equal(long.MaxValue, profile.TotalWeight);
        Assert.Equal(long.MaxValue, Assert.Single(profile.Entries).Weight);

        var e = Assert.Throws<BadInputException>(() => FoldedStackFormat.ReadInto(
            new StringReader("postgres;a;b 9223372036854775807\n# comment\npostgres;x 1\n"), "two.folded", new StackProfile(), true));
        Assert.StartsWith("two.folded:3: the counts add up to more than 9223372036854775807", e.OneLine);
    }

    [Fact]
    public void A_profile_refuses_a_sum_past_64_bits_and_stays_as_it_was()
    {
        var profile = new StackProfile();
        profile.Add("p", StackTable.Empty, long.MaxValue);
        Assert.False(profile.TryAdd("q", StackTable.Empty, 1));
        Assert.Throws<OverflowException>(() => profile.Add("p", StackTable.Empty, 1));
        Assert.Throws<ArgumentOutOfRangeException>(() => profile.Add("p", StackTable.Empty, -1));
        Assert.Equal(long.MaxValue, profile.TotalWeight);
        Assert.Equal(["p"], profile.Processes);
    }
}
