using System.Diagnostics;
using System.Text.Json;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Core.Text;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// <c>probe cleanup</c> runs as root on machines where every user can write to the temp folder. These plant what an
/// unprivileged user (<c>nobody</c>) could plant, and what a reused pid looks like, and check that nothing is touched.
/// </summary>
[System.Runtime.Versioning.SupportedOSPlatform("linux")]
public sealed class CleanupSecurityTests : IDisposable
{
    private const int Nobody = 65534;
    private readonly string _root = TestData.TempFolder("probe-cleanup-sec");
    private readonly string _tag = Guid.NewGuid().ToString("N")[..8];
    private readonly List<string> _planted = [];
    private readonly Process _victimProcess;
    private readonly ProcessIdentity _victimIdentity;
    private readonly string _victimFile;

    public CleanupSecurityTests()
    {
        // An unrelated live process and a root-owned file outside any probe folder.
        _victimProcess = Process.Start(new ProcessStartInfo("sleep", "600") { UseShellExecute = false })!;
        _victimIdentity = WaitForIdentity(_victimProcess.Id);
        _victimFile = Path.Combine(_root, "victim", "secret.txt");
        Directory.CreateDirectory(Path.GetDirectoryName(_victimFile)!);
        File.WriteAllText(_victimFile, "root's data");
    }

    [RootFact]
    public async Task Markers_planted_by_another_user_a_look_alike_folder_and_a_reused_pid_touch_nothing()
    {
        var pid = _victimProcess.Id;

        // As nobody, in the shared temp folder: the old marker and pid-file names, and a look-alike server folder.
        var evilPg = Planted($"probe-pg-evil-{_tag}");
        var evilPerf = Planted($"probe-perf-evil{_tag}-load.json");
        var lookAlike = Planted($"probe-pg-userdata-{_tag}");
        AsNobody($"mkdir -p {evilPg} {lookAlike}/data && echo '{{\"runId\":\"evil\",\"probePid\":3999999,\"serverPid\":{pid},\"dataFolder\":\"{Path.GetDirectoryName(_victimFile)}\"}}' > {evilPg}/probe-marker.json"
            + $" && echo '{{\"runId\":\"evil\",\"probePid\":3999999,\"perfPid\":{pid},\"dataPath\":\"{_victimFile}\"}}' > {evilPerf}"
            + $" && echo {pid} > {lookAlike}/data/postmaster.pid");

        // Root's private folder holds: a run folder and a marker another user owns (as if planted), a run folder
        // without any marker, and a genuine dead run whose recorded pid now belongs to another process and whose
        // recorded path is now another file.
        var runtime = Path.Combine(_root, "runtime");
        Directory.CreateDirectory(runtime, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        var hostile = new RunResource { Name = "x", Description = "hostile", Process = _victimIdentity, Path = _victimFile, StopSignal = 9 };
        var planted = DeadRun(runtime, "capture-planted", hostile with { Path = Path.GetDirectoryName(_victimFile) });
        Chown(planted, recursive: true);
        var forged = DeadRun(runtime, "capture-forged", hostile);
        Chown(Path.Combine(forged, RunMarker.FileName), recursive: false);
        var noMarker = Path.Combine(runtime, "capture-nomarker");
        Directory.CreateDirectory(noMarker, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        File.WriteAllText(Path.Combine(noMarker, "data"), "kept");
        var stale = PosixFile.LStat(_victimFile)!.Value;
        var reused = DeadRun(runtime, "capture-reused", hostile with
        {
            Process = _victimIdentity with { StartTicks = _victimIdentity.StartTicks - 1 },
            Device = stale.Device,
            Inode = stale.Inode + 1,
            Uid = 0,
        });

        var env = new Dictionary<string, string> { [RuntimeFolder.OverrideVariable] = runtime };
        foreach (var args in new[] { new[] { "cleanup", "--dry-run" }, ["cleanup"] })
        {
            using var probe = ProbeProcess.Start(env, args);
            var (exit, stdout, stderr) = await probe.WaitAsync(TimeSpan.FromSeconds(60));
            Assert.True(exit == 0, stderr + stdout);
            Assert.DoesNotContain($"stop pid {pid} ", stdout);
            Assert.DoesNotContain("stopped pid", stdout);
            Assert.DoesNotContain(_victimFile, stdout.Replace($"{_victimFile}: not the entry", "", StringComparison.Ordinal));
            Assert.Contains($"left alone: {planted}: it belongs to uid {Nobody}", stdout);
            Assert.Contains($"left alone: {forged}: no owner marker this user wrote (it belongs to uid {Nobody}", stdout);
            Assert.Contains($"left alone: {noMarker}: no owner marker this user wrote", stdout);
            Assert.Contains($"pid {pid} is not the recorded process any more", stdout);
            Assert.DoesNotContain(evilPg, stdout);
            Assert.DoesNotContain(lookAlike, stdout);
        }

        Assert.True(_victimIdentity.IsRunning, "the unrelated process was signalled");
        Assert.Equal("root's data", File.ReadAllText(_victimFile));
        Assert.True(File.Exists(Path.Combine(evilPg, "probe-marker.json")) && File.Exists(evilPerf) && File.Exists(Path.Combine(lookAlike, "data", "postmaster.pid")));
        Assert.True(Directory.Exists(planted) && File.Exists(Path.Combine(forged, RunMarker.FileName)) && File.Exists(Path.Combine(noMarker, "data")));

        // The genuine dead run is the probe's own: its folder goes, and only its folder.
        Assert.False(Directory.Exists(reused));
    }

    [Theory]
    [InlineData("other-owner")]
    [InlineData("open-mode")]
    [InlineData("symlink")]
    public async Task A_private_folder_that_is_not_private_is_refused_and_nothing_is_touched(string how)
    {
        var runtime = Path.Combine(_root, "runtime-" + how);
        var target = DeadRunFolderElsewhere();
        switch (how)
        {
            case "other-owner":
                Directory.Move(target, runtime);
                Chown(runtime, recursive: true);
                break;
            case "open-mode":
                Directory.Move(target, runtime);
                File.SetUnixFileMode(runtime, (UnixFileMode)0x1FF);
                break;
            default:
                File.CreateSymbolicLink(runtime, target);
                break;
        }

        using var probe = ProbeProcess.Start(new Dictionary<string, string> { [RuntimeFolder.OverrideVariable] = runtime }, "cleanup");
        var (exit, stdout, stderr) = await probe.WaitAsync(TimeSpan.FromSeconds(60));
        Assert.True(exit == 1, $"exit {exit}: {stdout}{stderr}");
        Assert.Contains($"the probe's private folder {runtime} is not safe to use", stderr);
        Assert.Contains(RuntimeFolder.OverrideVariable, stderr);
        Assert.DoesNotContain("   at ", stderr);
        Assert.True(_victimIdentity.IsRunning);
        Assert.True(File.Exists(_victimFile));
    }

    public void Dispose()
    {
        _victimProcess.Kill();
        _victimProcess.Dispose();
        foreach (var path in _planted)
        {
            if (Directory.Exists(path))
            {
                Directory.Delete(path, recursive: true);
            }
            else
            {
                File.Delete(path);
            }
        }

        Directory.Delete(_root, recursive: true);
    }

    /// <summary>A run folder (as the probe makes them) whose owner is a dead process, recording <paramref name="resource"/>.</summary>
    private static string DeadRun(string runtime, string name, RunResource resource)
    {
        var folder = Path.Combine(runtime, name);
        Directory.CreateDirectory(folder, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        TrustedJson.Write(Path.Combine(folder, RunMarker.FileName), new RunMarker
        {
            RunId = name,
            Kind = "capture",
            Owner = ProcessIdentity.Current with { Pid = 3_999_999 },
            CreatedUtc = DateTime.UtcNow,
        });
        TrustedJson.Write(Path.Combine(folder, RunFolder.ResourcePrefix + resource.Name + ".json"), resource);
        return folder;
    }

    private string DeadRunFolderElsewhere()
    {
        var folder = Path.Combine(_root, "made-" + Guid.NewGuid().ToString("N")[..6]);
        Directory.CreateDirectory(folder, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        DeadRun(folder, "capture-x", new RunResource { Name = "x", Description = "x", Process = _victimIdentity, Path = _victimFile, StopSignal = 9 });
        return folder;
    }

    private string Planted(string name)
    {
        var path = Path.Combine(Path.GetTempPath(), name);
        _planted.Add(path);
        return path;
    }

    private static void AsNobody(string script) => Run("setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--", "sh", "-c", script);

    private static void Chown(string path, bool recursive) => Run("chown", recursive ? "-R" : "-h", $"{Nobody}:{Nobody}", path);

    private static void Run(string file, params string[] args)
    {
        var info = new ProcessStartInfo(file) { UseShellExecute = false, RedirectStandardError = true };
        foreach (var a in args)
        {
            info.ArgumentList.Add(a);
        }

        using var p = Process.Start(info)!;
        var err = p.StandardError.ReadToEnd();
        p.WaitForExit();
        Assert.True(p.ExitCode == 0, $"{file} failed: {err}");
    }

    private static ProcessIdentity WaitForIdentity(int pid)
    {
        for (var i = 0; i < 100; i++)
        {
            if (ProcessIdentity.Read(pid) is { Executable: var exe } id && exe.EndsWith("/sleep", StringComparison.Ordinal))
            {
                return id;
            }

            Thread.Sleep(20);
        }

        throw new InvalidOperationException("sleep did not start");
    }
}
