using SqlWaitProbe.Analysis.Stacks;
using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Analysis.Tests.Stacks;

public sealed class CallerCalleeViewTests
{
    private static readonly Frame Main = new("postgres", "main", FrameKind.User);
    private static readonly Frame Exec = new("postgres", "ExecScan", FrameKind.User);
    private static readonly Frame Digest = new("pgcrypto.so", "pg_digest", FrameKind.User);
    private static readonly Frame Evp = new("libcrypto.so.3", "EVP_Digest", FrameKind.User);
    private static readonly Frame Sha = new("libcrypto.so.3", "sha256_block", FrameKind.User);
    private static readonly Frame Fault = new("[kernel.kallsyms]", "asm_exc_page_fault", FrameKind.Kernel);

    private static StackProfile Profile()
    {
        var p = new StackProfile();
        p.Add("postgres", [Main, Exec, Digest, Evp, Sha], 50);
        p.Add("postgres", [Main, Exec, Digest, Evp], 20);
        p.Add("postgres", [Main, Exec, Digest, Evp, Sha, Fault], 5);
        p.Add("postgres", [Main, Exec], 25);
        p.Add("postgres", [Evp, Sha], 10);
        return p;
    }

    [Fact]
    public void Glob_on_module_finds_callers_and_callees_with_weights()
    {
        var view = CallerCalleeView.Compute(Profile(), "libcrypto*!*");
        Assert.Equal(110, view.TotalWeight);
        Assert.Equal(85, view.InclusiveWeight);
        Assert.Equal(80, view.ExclusiveWeight);
        Assert.Equal(["libcrypto.so.3!EVP_Digest", "libcrypto.so.3!sha256_block"], view.MatchedFrames);

        Assert.Equal(2, view.Callers.Count);
        Assert.Equal(("pgcrypto.so!pg_digest", 75L), (view.Callers[0].Name, view.Callers[0].InclusiveWeight));
        Assert.Equal(("(process postgres)", 10L), (view.Callers[1].Name, view.Callers[1].InclusiveWeight));
        Assert.Equal(75.0 / 85, view.Callers[0].Share, 6);

        Assert.Equal((CallerCalleeView.Self, 80L), (view.Callees[0].Name, view.Callees[0].InclusiveWeight));
        Assert.Equal(("[kernel.kallsyms]!asm_exc_page_fault", 5L, 5L), (view.Callees[1].Name, view.Callees[1].InclusiveWeight, view.Callees[1].ExclusiveWeight));
    }

    [Fact]
    public void Plain_text_is_a_case_insensitive_substring_and_recursion_counts_once()
    {
        var p = new StackProfile();
        p.Add("app", [Main, Exec, Exec, Exec, Digest], 4);
        var view = CallerCalleeView.Compute(p, "execscan");
        Assert.Equal(4, view.InclusiveWeight);
        Assert.Equal(0, view.ExclusiveWeight);
        Assert.Equal("postgres!main", Assert.Single(view.Callers).Name);
        Assert.Equal(("pgcrypto.so!pg_digest", 4L), (Assert.Single(view.Callees).Name, view.Callees[0].InclusiveWeight));
    }

    [Fact]
    public void Symbol_glob_without_module_and_no_match()
    {
        Assert.Equal(85, CallerCalleeView.Compute(Profile(), "EVP_*").InclusiveWeight);
        var none = CallerCalleeView.Compute(Profile(), "nothing_like_this*");
        Assert.Empty(none.MatchedFrames);
        Assert.Equal(0, none.InclusiveWeight);
        Assert.Throws<ArgumentException>(() => CallerCalleeView.Compute(Profile(), " "));
    }
}
