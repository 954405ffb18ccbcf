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

        /// <summary>
        /// Fills the disk until about <paramref name="leave"/> bytes are free (0: completely full). A capture may write
        /// meanwhile, so the filler may meet a full disk itself: it then gives back what was asked to be left.
        /// </summary>
        public void FillLeaving(long leave)
        {
            const int chunk = 1024 * 1024;
            var block = new byte[chunk];
            using var filler = new FileStream(Path.Combine(Folder, "filler-" + Guid.NewGuid().ToString("N")[..6] + ".bin"), FileMode.Create, FileAccess.Write, FileShare.None, bufferSize: 0);
            try
            {
                while (new DriveInfo(Folder).AvailableFreeSpace - chunk > leave)
                {
                    filler.Write(block);
                }

                if (leave == 0)
                {
                    // The last partial megabyte, a page at a time, until the file system refuses.
                    var page = new byte[4096];
                    while (true)
                    {
                        filler.Write(page);
                    }
                }
            }
            catch (IOException)
            {
                // The disk filled under the filler.
            }

            var missing = leave - new DriveInfo(Folder).AvailableFreeSpace;
            if (missing > 0)
            {
                filler.SetLength(Math.Max(0, filler.Length - missing));
            }
        }

        /// <inheritdoc />
        public void Dispose()
        {
            Run("umount", "-l", Folder);
            Directory.Delete(Folder, recursive: true);
        }
    }
}
