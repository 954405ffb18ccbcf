using SqlWaitProbe.Analysis.Ledger;
using SqlWaitProbe.Analysis.Stacks;
using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Analysis.Tests.Stacks;

/// <summary>Named functions and named call paths where the leaf functions have no symbol.</summary>
public sealed class HotFunctionsTests
{
    /// <summary>
    /// The digest workload's shape, 100 samples of postgres: every stack starts in libc's start-up code and the
    /// executor; 62 go through px_find_digest into an unnamed libcrypto entry that calls EVP_MD_fetch (34) or
    /// OBJ_NAME_get (11), or stays in unnamed code (17); 9 hash (SHA256_Final); 29 elsewhere in postgres.
    /// </summary>
    private static StackProfile Digest()
    {
        const string trunk = "libc.so.6!__libc_start_main;postgres!main;postgres!PostgresMain;postgres!PortalRun;postgres!standard_ExecutorRun";
        var profile = new StackProfile();
        void Add(string frames, long weight) => profile.Add("postgres", frames.Split(';').Select(Parse).ToArray(), weight);
        Add(trunk + ";postgres![postgres];pgcrypto.so!pg_digest;pgcrypto.so!px_find_digest;libcrypto.so.3![libcrypto.so.3];libcrypto.so.3!EVP_MD_fetch;libcrypto.so.3![libcrypto.so.3];libc.so.6!pthread_rwlock_rdlock", 20);
        Add(trunk + ";postgres![postgres];pgcrypto.so!pg_digest;pgcrypto.so!px_find_digest;libcrypto.so.3![libcrypto.so.3];libcrypto.so.3!EVP_MD_fetch;libcrypto.so.3![libcrypto.so.3]", 14);
        Add(trunk + ";postgres![postgres];pgcrypto.so!pg_digest;pgcrypto.so!px_find_digest;libcrypto.so.3![libcrypto.so.3];libcrypto.so.3!OBJ_NAME_get", 11);
        Add(trunk + ";postgres![postgres];pgcrypto.so!pg_digest;pgcrypto.so!px_find_digest;libcrypto.so.3![libcrypto.so.3]", 17);
        Add(trunk + ";postgres![postgres];pgcrypto.so!pg_digest;libcrypto.so.3!EVP_DigestFinal_ex;libcrypto.so.3!SHA256_Final", 9);
        Add(trunk + ";postgres!heap_getnextslot", 20);
        Add(trunk + ";postgres!ExecScan;postgres![postgres]", 9);
        return profile;
    }

    private static Frame Parse(string text)
    {
        var bang = text.IndexOf('!');
        return new Frame(text[..bang], text[(bang + 1)..], FrameKind.User);
    }

    [Fact]
    public void Functions_are_ranked_by_inclusive_share_below_the_shared_trunk_without_pass_through_frames()
    {
        var hot = HotFunctions.Compute(Digest(), "postgres");

        // The trunk (on ≥ 90% of samples from the root) is left out; pg_digest (71%) hands 62 of 71 to px_find_digest
        // (87%, under the 90% pass-through) and stays; EVP_DigestFinal_ex passes all of its 9 to SHA256_Final and goes.
        Assert.Equal(
            [("pgcrypto.so!pg_digest", 0.71), ("pgcrypto.so!px_find_digest", 0.62), ("libcrypto.so.3!EVP_MD_fetch", 0.34), ("libc.so.6!pthread_rwlock_rdlock", 0.20),
             ("postgres!heap_getnextslot", 0.20), ("libcrypto.so.3!OBJ_NAME_get", 0.11), ("libcrypto.so.3!SHA256_Final", 0.09), ("postgres!ExecScan", 0.09)],
            hot.Select(h => (h.Function, Math.Round(h.InclusiveShare, 6))));
        var find = hot.Single(h => h.Symbol == "px_find_digest");
        Assert.Equal([("libcrypto.so.3!EVP_MD_fetch", 0.34), ("libcrypto.so.3!OBJ_NAME_get", 0.11)], find.Callees.Select(c => (c.Function, Math.Round(c.Share, 6))));
        Assert.Equal(0, find.SelfShare);
        Assert.Equal(0.20, hot.Single(h => h.Symbol == "pthread_rwlock_rdlock").SelfShare, 9);
    }

    [Fact]
    public void A_path_whose_entry_into_the_module_has_no_name_is_named_by_its_deepest_named_frame_and_what_the_entry_calls()
    {
        var paths = CallPaths.IntoModule(Digest(), "postgres", "libcrypto.so.3", kernel: false);

        var heaviest = paths[0];
        Assert.Equal(0.62, heaviest.Share, 9);
        Assert.Equal("libcrypto.so.3!?", heaviest.Frames[^1]);
        Assert.True(heaviest.EndsUnnamed);
        Assert.Equal("pgcrypto.so!px_find_digest", heaviest.NamedAs);
        Assert.Equal([("libcrypto.so.3!EVP_MD_fetch", 0.34), ("libcrypto.so.3!OBJ_NAME_get", 0.11)], heaviest.Inside.Select(i => (i.Function, Math.Round(i.Share, 6))));
        Assert.Equal("pgcrypto.so!px_find_digest → libcrypto.so.3!EVP_MD_fetch (34%), libcrypto.so.3!OBJ_NAME_get (11%)", heaviest.Naming);

        var named = paths[1];
        Assert.False(named.EndsUnnamed);
        Assert.Equal("libcrypto.so.3!EVP_DigestFinal_ex", named.NamedAs);
        Assert.Equal("libcrypto.so.3!SHA256_Final", Assert.Single(named.Inside).Function);
    }

    [Fact]
    public void A_module_reached_through_start_up_frames_on_every_stack_is_not_inclusive_of_everything()
    {
        var profile = Digest();
        var plain = ModuleShares.Compute(profile, "postgres").Single(m => m.Module == "libc.so.6");
        var belowTrunk = ModuleShares.Compute(profile, "postgres", StackTrunk.Of(profile, "postgres")).Single(m => m.Module == "libc.so.6");

        Assert.Equal(1.0, plain.InclusiveShare, 9);
        Assert.Equal(0.20, belowTrunk.InclusiveShare, 9);
        Assert.Equal(plain.ExclusiveShare, belowTrunk.ExclusiveShare, 9);
    }

    [Fact]
    public void Runs_of_one_unnamed_frame_read_once()
    {
        var path = new CallPath(["postgres!?", "postgres!?", "postgres!PortalRun", "postgres!?", "libcrypto.so.3!?"], 1, 1);

        Assert.Equal(["postgres!?", "postgres!PortalRun", "postgres!?", "libcrypto.so.3!?"], path.Compact());
    }
}
