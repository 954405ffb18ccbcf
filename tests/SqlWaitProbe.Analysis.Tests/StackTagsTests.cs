using SqlWaitProbe.Analysis.Tags;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Stacks;
using SqlWaitProbe.TestSupport;
using SqlWaitProbe.SqlServer.Engine;

namespace SqlWaitProbe.Analysis.Tests;

public sealed class StackTagsTests
{
    [Theory]
    [InlineData("mso-scripts__VirtualAlloc.stacktags", 26)]
    [InlineData("mso-scripts__OfficeBasic.stacktags", 59)]
    [InlineData("mso-scripts__ETW-Overhead-for-CPU.stacktags", 1)]
    public void Imports_every_real_stacktags_file(string file, int entrypoints)
    {
        var set = StackTagsFile.Import(TestData.Path("stacktags/" + file));

        Assert.Equal(entrypoints, set.Rules.Count);
        Assert.All(set.Rules, r => Assert.False(string.IsNullOrWhiteSpace(r.ModulePattern)));
        Assert.DoesNotContain(set.Rules, r => r.Tag.StartsWith('\\'));
    }

    [Fact]
    public void Real_virtualalloc_tags_match_windows_frames_without_extensions()
    {
        var set = StackTagsFile.Import(TestData.Path("stacktags/mso-scripts__VirtualAlloc.stacktags"));

        Assert.Equal("CLR JIT Compile", set.TagOfFrame(new Frame("clrjit", "Compile", FrameKind.User)));
        Assert.Equal("Thread Stack", set.TagOfFrame(new Frame("ntoskrnl", "MiCheckForUserStackOverflow", FrameKind.Kernel)));
    }

    [Fact]
    public void Real_office_tags_keep_nested_names_and_treat_unnamed_tags_as_untagged()
    {
        var set = StackTagsFile.Import(TestData.Path("stacktags/mso-scripts__OfficeBasic.stacktags"));

        Assert.Contains(set.Rules, r => r.Tag == "Dynamic Initializers" || r.Tag.EndsWith("\\Dynamic Initializers", StringComparison.Ordinal));
        Assert.Equal(StackTagSet.Other, set.TagOfFrame(new Frame("ntdll", "RtlUserThreadStart", FrameKind.User)));
    }

    [Fact]
    public void Nested_tags_join_names_and_inherit_priority()
    {
        using var xml = new MemoryStream("<Tag Name=\"\"><Tag Name=\"Memory\" Priority=\"7\"><Tag Name=\"Zero\"><Entrypoint Module=\"ntoskrnl.exe\" Method=\"MiZero*\"/></Tag></Tag></Tag>"u8.ToArray());

        var rule = Assert.Single(StackTagsFile.Import(xml, "x.stacktags").Rules);

        Assert.Equal(new StackTagRule("Memory\\Zero", "ntoskrnl.exe", "MiZero*", 7), rule);
    }

    [Fact]
    public void A_stack_takes_the_tag_of_its_first_matching_frame_from_the_leaf()
    {
        var profile = new StackProfile();
        profile.Add("sqlservr", [new Frame("sqllang", "Exec", FrameKind.User), new Frame("bcryptprimitives", "SymCryptSha256", FrameKind.User), new Frame("sqldk", "SOS_MemoryWorkSpace::Alloc", FrameKind.User)], 30);
        profile.Add("sqlservr", [new Frame("sqllang", "Exec", FrameKind.User), new Frame("bcryptprimitives", "SymCryptSha256", FrameKind.User)], 60);
        profile.Add("sqlservr", [new Frame("sqllang", "Exec", FrameKind.User)], 10);

        var weights = SqlServerStackTags.Set.Weigh(profile, "sqlservr");

        Assert.Equal([("bcrypt hashing", 60L), ("SOS memory allocation/free", 30L), (StackTagSet.Other, 10L)], weights);
    }

    [Fact]
    public void Exported_stacktags_import_back_to_the_same_rules()
    {
        var path = Path.Combine(TestData.TempFolder(), "sqlserver.stacktags");
        File.WriteAllText(path, StackTagsFile.ToStackTags(SqlServerStackTags.Set));

        var back = StackTagsFile.Import(path);

        Assert.Equal(SqlServerStackTags.Set.Rules.Select(r => (r.Tag, r.ModulePattern, r.FunctionPattern)),
            back.Rules.Select(r => (r.Tag, r.ModulePattern, r.FunctionPattern)).OrderBy(_ => 0));
        Assert.Contains("sqldk!Spinlock*->Spinlock spin/backoff", StackTagsFile.ToPerfViewGroupPats(SqlServerStackTags.Set));
    }

    [Theory]
    [InlineData("<Tag Name=\"\">\n<Tag Name=\"a\">\n<Entrypoint Method=\"x\"/>\n</Tag></Tag>", 3, "Entrypoint has no Module attribute")]
    [InlineData("<Tag Name=\"\">\n<Tag Name=\"a\" Priority=\"high\">\n</Tag></Tag>", 2, "Priority 'high'")]
    [InlineData("<Tag Name=\"\">\n<Tag Name=\"a\">\n</Tag>", 3, "not valid stack tags XML")]
    [InlineData("<Foo/>", 1, "no <Tag> element")]
    public void Bad_stacktags_name_the_line(string xml, int line, string message)
    {
        using var stream = new MemoryStream(System.Text.Encoding.UTF8.GetBytes(xml));

        var e = Assert.Throws<BadInputException>(() => StackTagsFile.Import(stream, "bad.stacktags"));

        Assert.Equal(line, e.Line);
        Assert.Contains(message, e.Message);
    }

    [Theory]
    [InlineData("sqldk", "sqldk.dll", true)]
    [InlineData("bcrypt*", "bcryptprimitives", true)]
    [InlineData("*SpinToAcquire*", "SpinlockBase::SpinToAcquireWithExponentialBackoff", true)]
    [InlineData("Mi*", "MmAccessFault", false)]
    [InlineData("libcrypto.so*", "libcrypto.so.3", true)]
    [InlineData("a?c", "ABC", true)]
    public void Wildcards_match_case_insensitively(string pattern, string text, bool expected) =>
        Assert.Equal(expected, Wildcard.IsMatch(Wildcard.StripImageExtension(pattern), Wildcard.StripImageExtension(text)));
}
