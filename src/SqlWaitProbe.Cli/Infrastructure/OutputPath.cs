using System.Text;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Files;
using SqlWaitProbe.Core.Runtime;

namespace SqlWaitProbe.Cli.Infrastructure;

/// <summary>
/// The one check of an output path, run by every command that writes (analyze, compare, pack, capture, demo, the
/// stacks verbs, xe read) before it reads its input or makes anything: a name the file system can hold (with the
/// temporary name <see cref="AtomicFile"/> writes first), of the right kind (a folder where a folder is written, a
/// file where a file is; a device only where a stream may go), writable, not inside or on top of an input, and not
/// overwriting an earlier result unless <c>--force</c> says so. Every failure is one line of bad input (exit 2).
/// </summary>
public static class OutputPath
{
    /// <summary>Longest name of one file or folder, bytes (Linux <c>NAME_MAX</c>; NTFS counts 255 characters).</summary>
    public const int NameMaxBytes = 255;

    /// <summary>What <see cref="AtomicFile"/> adds to a file's name for its temporary file: a dot before, <c>.XXXXXXXX.tmp</c> after.</summary>
    public const int TemporaryNameBytes = 14;

    // Linux PATH_MAX counts the terminating NUL; a folder output leaves room for the names written inside it.
    private const int PathMaxBytes = 4095;
    private const int RoomForNamesInside = 320;

    private static readonly string[] ReportFiles = ["report.md", "report.html", "findings.json"];

    /// <summary>
    /// Checks a report folder (analyze, compare): a usable name, not a file or device, writable, not inside an input
    /// (<paramref name="allowedInside"/> excepted: a bundle's own <c>report</c> folder), and holding no report unless
    /// <paramref name="force"/>.
    /// </summary>
    public static void CheckReportFolder(string folder, bool force, IReadOnlyCollection<string> inputs, string? allowedInside = null)
    {
        CheckFolder(folder, "a report", inputs, allowedInside);
        var full = Path.GetFullPath(folder);
        if (Directory.Exists(full) && !force && ReportFiles.Any(f => File.Exists(Path.Combine(full, f))))
        {
            throw new BadInputException("the folder already holds a report; add --force to overwrite it, or choose another -o", folder);
        }
    }

    /// <summary>
    /// Checks a capture's folder (capture, demo): a usable name, not a file, writable (or makeable), then what
    /// <see cref="BundleWriter.CheckCaptureFolder"/> asks of its content.
    /// </summary>
    public static void CheckCaptureFolder(string folder, bool force)
    {
        CheckFolder(folder, "a capture", [], null);
        BundleWriter.CheckCaptureFolder(folder, force);
    }

    /// <summary>
    /// Checks a folder the command makes or writes into: a usable name, not a file or device, writable (or, when it
    /// does not exist yet, its nearest existing folder writable), and not inside an input.
    /// </summary>
    public static void CheckFolder(string folder, string what, IReadOnlyCollection<string> inputs, string? allowedInside)
    {
        var full = CheckName(folder, isFile: false);
        if (PosixFile.Stat(full) is { IsSpecial: true } || (!OperatingSystem.IsLinux() && IsDeviceName(full)))
        {
            throw new BadInputException($"-o names a device, but {what} is a folder; choose a folder name", folder);
        }

        if (File.Exists(full))
        {
            throw new BadInputException($"-o names an existing file, but {what} is a folder; choose a folder name", folder);
        }

        CheckNotInsideInputs(full, folder, inputs, allowedInside);
        CheckWritable(Directory.Exists(full) ? full : NearestExistingFolder(full, folder), folder);
    }

    /// <summary>
    /// Checks an output file: a usable name, not a folder, its folder exists and is writable, not one of the inputs
    /// nor inside one, and it does not exist unless <paramref name="force"/>. A device (<c>/dev/null</c>,
    /// <c>/dev/stdout</c>) passes only when <paramref name="devices"/>, as it is then written in place.
    /// </summary>
    public static void CheckFile(string file, bool force, IReadOnlyCollection<string> inputs, bool devices)
    {
        var full = CheckName(file, isFile: true);
        if (IsDevice(full))
        {
            if (!devices)
            {
                throw new BadInputException("-o names a device, not a file; this command writes a file it moves into place: give a file name", file);
            }

            return;
        }

        if (Directory.Exists(full))
        {
            throw new BadInputException("-o names an existing folder, but a file is written here; give a file name", file);
        }

        var parent = Path.GetDirectoryName(full)!;
        if (!Directory.Exists(parent))
        {
            throw new BadInputException(File.Exists(parent) ? "the folder of the output file is a file; choose another -o" : "the folder of the output file does not exist; create it first", file);
        }

        CheckNotInsideInputs(full, file, inputs, null);
        if (File.Exists(full) && !force)
        {
            throw new BadInputException("the file already exists; add --force to overwrite it, or choose another -o", file);
        }

        CheckWritable(parent, file);
    }

    /// <summary>
    /// True for a device, pipe or socket (links followed), and for any path under <c>/dev/</c>: written in place,
    /// never replaced by a file.
    /// </summary>
    public static bool IsDevice(string full) =>
        IsDeviceName(full) || (OperatingSystem.IsLinux() && PosixFile.Stat(full) is { IsSpecial: true });

    private static bool IsDeviceName(string full) => full.StartsWith("/dev/", StringComparison.Ordinal);

    // A name the file system can hold, written whole or under the temporary name first; returns the full path.
    private static string CheckName(string given, bool isFile)
    {
        if (string.IsNullOrWhiteSpace(given))
        {
            throw new BadInputException($"-o is empty; give a {(isFile ? "file" : "folder")} name");
        }

        if (isFile && Path.EndsInDirectorySeparator(given))
        {
            throw new BadInputException("-o ends in a '/', so it names a folder, but a file is written here; give a file name", given);
        }

        var full = Path.GetFullPath(given);
        foreach (var name in full.Split(Path.DirectorySeparatorChar, StringSplitOptions.RemoveEmptyEntries))
        {
            var bytes = Encoding.UTF8.GetByteCount(name);
            if (bytes > NameMaxBytes)
            {
                throw new BadInputException($"-o holds a name of {bytes} bytes; a file system allows at most {NameMaxBytes} bytes per name: choose a shorter name", BundleNames.Shorten(given));
            }
        }

        var last = Encoding.UTF8.GetByteCount(Path.GetFileName(full));
        if (isFile && last > NameMaxBytes - TemporaryNameBytes)
        {
            throw new BadInputException(
                $"the file name is {last} bytes; at most {NameMaxBytes - TemporaryNameBytes} bytes here, as the file is first written under a temporary name {TemporaryNameBytes} bytes longer: choose a shorter name",
                BundleNames.Shorten(given));
        }

        var pathBytes = Encoding.UTF8.GetByteCount(full) + (isFile ? TemporaryNameBytes : RoomForNamesInside);
        if (pathBytes > PathMaxBytes)
        {
            throw new BadInputException($"-o is too long a path ({Encoding.UTF8.GetByteCount(full)} bytes with the names written in it, over {PathMaxBytes}); choose a shorter one", BundleNames.Shorten(given));
        }

        return full;
    }

    // Writing inside an input would change it (a bundle with an unlisted file is refused from then on) or replace it.
    private static void CheckNotInsideInputs(string full, string given, IReadOnlyCollection<string> inputs, string? allowedInside)
    {
        var output = Canonical(full);
        var allowed = allowedInside is null ? null : Canonical(Path.GetFullPath(allowedInside));
        foreach (var input in inputs.Where(i => i is { Length: > 0 } && i != "-"))
        {
            var inputFull = Path.GetFullPath(input);
            if (IsDevice(inputFull) || !(File.Exists(inputFull) || Directory.Exists(inputFull)))
            {
                continue;
            }

            var target = Canonical(inputFull);
            if (string.Equals(output, target, StringComparison.Ordinal))
            {
                throw new BadInputException($"-o names the input '{input}' itself; writing there would replace what is being read: choose another -o", given);
            }

            if (output.StartsWith(target + Path.DirectorySeparatorChar, StringComparison.Ordinal) && !string.Equals(output, allowed, StringComparison.Ordinal))
            {
                var hint = allowed is null ? "" : $" (its own report goes to {allowed}, the default)";
                throw new BadInputException($"-o is inside the input '{input}'; writing there would change the input{hint}: choose a folder outside it", given);
            }
        }
    }

    // The path with every link resolved, as far as it exists; the rest appended as given.
    private static string Canonical(string full)
    {
        var rest = new Stack<string>();
        var current = Path.TrimEndingDirectorySeparator(full);
        while (true)
        {
            if (Core.Os.Libc.RealPath(current) is { } real)
            {
                return rest.Aggregate(real, Path.Combine);
            }

            var parent = Path.GetDirectoryName(current);
            if (parent is null)
            {
                return full;
            }

            rest.Push(Path.GetFileName(current));
            current = parent;
        }
    }

    private static string NearestExistingFolder(string full, string given)
    {
        var current = Path.GetDirectoryName(full);
        while (current is not null && !Directory.Exists(current))
        {
            if (File.Exists(current))
            {
                throw new BadInputException($"'{current}' is a file, so no folder can be made under it; choose another -o", given);
            }

            current = Path.GetDirectoryName(current);
        }

        return current ?? throw new BadInputException("no existing folder above the output path", given);
    }

    private static void CheckWritable(string folder, string given)
    {
        var probe = Path.Combine(folder, ".probe-write-check-" + Guid.NewGuid().ToString("N")[..8]);
        try
        {
            using (new FileStream(probe, FileMode.CreateNew, FileAccess.Write, FileShare.None, 1, FileOptions.DeleteOnClose))
            {
            }
        }
        catch (Exception e) when (e is UnauthorizedAccessException or IOException)
        {
            throw new BadInputException($"cannot write in '{folder}' ({e.Message.Split('\n')[0].TrimEnd('.')}); choose a writable -o", given);
        }
    }
}
