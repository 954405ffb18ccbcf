using SqlWaitProbe.Core.Runtime;

namespace SqlWaitProbe.Core.Tests.Runtime;

/// <summary>
/// A capture's run folder goes with its last resource, and its collectors start and stop at the same moments: an
/// off-CPU perf restarted for a client that reconnects forgets its record while the CPU-stacks perf records its own.
/// Each record must land in a folder that exists, or the collector fails to start ("Could not find a part of the
/// path"), and the phase has no CPU stacks.
/// </summary>
public sealed class RunScopeRecordTests
{
    private static RunResource Resource(string name, RunFolder folder) =>
        new() { Name = name, Description = "test resource " + name, ProcessArgument = folder.PathFor(name + ".data") };

    [Fact]
    public void A_record_made_after_the_runs_last_resource_was_forgotten_lands_in_a_new_folder_that_exists()
    {
        var scope = new RunScope("capture", "s" + Guid.NewGuid().ToString("N")[..9]);
        var first = scope.Record(f => Resource("a", f));
        first.Forget("a");
        Assert.True(first.IsDeleted, "the folder goes with its last resource");

        var second = scope.Record(f => Resource("b", f));
        try
        {
            Assert.NotEqual(first.Path, second.Path);
            Assert.True(File.Exists(Path.Combine(second.Path, RunFolder.ResourcePrefix + "b.json")));
            Assert.Equal(second.PathFor("b.data"), TrustedJson.Read<RunResource>(Path.Combine(second.Path, RunFolder.ResourcePrefix + "b.json"))!.ProcessArgument);
        }
        finally
        {
            second.Dispose();
        }
    }

    [Fact]
    public void A_folder_read_before_its_last_resource_was_forgotten_refuses_a_record_with_a_clear_error()
    {
        var scope = new RunScope("capture", "s" + Guid.NewGuid().ToString("N")[..9]);
        var folder = scope.Record(f => Resource("a", f));
        folder.Forget("a");

        var e = Assert.Throws<InvalidOperationException>(() => folder.Record(Resource("b", folder)));
        Assert.Contains("was deleted before b was recorded", e.Message);
    }

    [Fact]
    public async Task Records_and_forgets_on_two_threads_never_write_into_a_deleted_folder()
    {
        var scope = new RunScope("capture", "s" + Guid.NewGuid().ToString("N")[..9]);
        var failures = new List<string>();
        async Task Loop(string name) => await Task.Run(() =>
        {
            for (var i = 0; i < 3000; i++)
            {
                var folder = scope.Record(f => Resource(name, f));
                if (!File.Exists(Path.Combine(folder.Path, RunFolder.ResourcePrefix + name + ".json")))
                {
                    lock (failures)
                    {
                        failures.Add($"{name} #{i}: no record in {folder.Path}");
                    }
                }

                folder.Forget(name);
            }
        });

        await Task.WhenAll(Loop("offcpu-attach"), Loop("perf-attach"));
        Assert.Empty(failures);
    }

    [Fact]
    public void An_experiments_record_keeps_its_folder_between_settings_until_disposed()
    {
        var record = RuntimeFolder.Run("experiment", "e" + Guid.NewGuid().ToString("N")[..9]);
        try
        {
            record.Record(Resource("setting-1", record));
            record.Forget("setting-1");
            Assert.True(Directory.Exists(record.Path), "restoring the first variant's setting does not delete the record");

            record.Record(Resource("setting-2", record));
            Assert.True(File.Exists(Path.Combine(record.Path, RunFolder.ResourcePrefix + "setting-2.json")));
        }
        finally
        {
            record.Dispose();
        }

        Assert.False(Directory.Exists(record.Path));
    }
}
