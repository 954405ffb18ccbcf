using System.Diagnostics;
using Xunit;

namespace SqlWaitProbe.TestSupport;

/// <summary>A fact that needs a small file system of its own (a tmpfs mounted by the test); skipped, with the reason, where mounting is not allowed.</summary>
public sealed class SmallDiskFactAttribute : FactAttribute
{
    private static readonly Lazy<string?> Problem = new(FindProblem);

    public SmallDiskFactAttribute()
    {
        if (Problem.Value is { } problem)
        {
            Skip = problem;
        }
    }

    /// <summary>Mounts a tmpfs of <paramref name="megabytes"/> MB at a new folder; dispose to unmount and remove it.</summary>
    public static SmallDisk Mount(int megabytes)
    {
        var folder = Path.Combine(Path.GetTempPath(), "probe-small-disk-" + Guid.NewGuid().ToString("N")[..8]);
        Directory.CreateDirectory(folder);
        if (Run("mount", "-t", "tmpfs", "-o", $"size={megabytes}m", "tmpfs", folder) is { } error)
        {
            Directory.Delete(folder);
            throw new InvalidOperationException("mount failed: " + error);
        }

        return new SmallDisk(folder);
    }

    private static string? FindProblem()
    {
        if (!OperatingSystem.IsLinux() || Environment.UserName != "root")
        {
            return "needs root on Linux to mount a small tmpfs";
        }

        try
        {
            Mount(8).Dispose();
            return null;
        }
        catch (Exception e) when (e is InvalidOperationException or System.ComponentModel.Win32Exception)
        {
            return "this environment does not allow mounting a tmpfs: " + e.Message;
        }
    }

    private static string? Run(string file, params string[] args)
    {
        var info = new ProcessStartInfo(file) { RedirectStandardError = true, RedirectStandardOutput = true, UseShellExecute = false };
        foreach (var a in args)
        {
            info.ArgumentList.Add(a);
        }

        using var p = Process.Start(info)!;
        var error = p.StandardError.ReadToEnd();
        p.WaitForExit();
        return p.ExitCode == 0 ? null : error.Trim();
    }

    /// <summary>A mounted tmpfs.</summary>
    public sealed class SmallDisk(string folder) : IDisposable
    {
        /// <summary>The mount point.</summary>
        public string Folder { get; } = folder;

        /// <inheritdoc />
        public void Dispose()
        {
            Run("umount", "-l", Folder);
            Directory.Delete(Folder, recursive: true);
        }
    }
}
