using SqlWaitProbe.Cli.Infrastructure;

namespace SqlWaitProbe.Cli.Commands;

/// <summary>Writes command output to a file (through a temporary file moved into place, so no half-written file is left) or to stdout.</summary>
internal static class StacksOutput
{
    /// <summary>
    /// Checks <paramref name="path"/> before any work (<see cref="OutputPath.CheckFile"/>): a file (not a folder) in an
    /// existing, writable folder, none of the <paramref name="inputs"/>, and not an existing file unless
    /// <paramref name="force"/>. Standard output (null or <c>-</c>) and devices pass.
    /// </summary>
    public static void Check(string? path, bool force, params string?[] inputs)
    {
        if (path is null || path == "-")
        {
            return;
        }

        OutputPath.CheckFile(path, force, [.. inputs.OfType<string>()], devices: true);
    }

    /// <summary>
    /// Writes to <paramref name="path"/>, or to <paramref name="console"/>'s stdout when it is null or <c>-</c>; an
    /// existing file is replaced only with <paramref name="force"/>.
    /// </summary>
    public static async Task WriteAsync(IProbeConsole console, string? path, bool force, Func<Stream, Task> write)
    {
        if (path is null || path == "-")
        {
            await using var stdout = console.OpenStandardOutput();
            await write(stdout);
            await stdout.FlushAsync();
            return;
        }

        var full = Path.GetFullPath(path);
        if (OutputPath.IsDevice(full))
        {
            await using var device = new FileStream(full, FileMode.Open, FileAccess.Write);
            await write(device);
            return;
        }

        // Checked again: the file may have appeared while the input was read.
        OutputPath.CheckFile(path, force, [], devices: true);
        await Core.Files.AtomicFile.WriteAsync(full, (stream, _) => write(stream), CancellationToken.None);
    }

    /// <summary>Writes text through <see cref="WriteAsync(IProbeConsole, string?, bool, Func{Stream, Task})"/> as UTF-8 without a byte-order mark.</summary>
    public static Task WriteTextAsync(IProbeConsole console, string? path, bool force, Action<TextWriter> write)
    {
        if (path is null || path == "-")
        {
            write(console.Out);
            return console.Out.FlushAsync();
        }

        return WriteAsync(console, path, force, async stream =>
        {
            await using var writer = new StreamWriter(stream, new System.Text.UTF8Encoding(false), 1 << 16, leaveOpen: true) { NewLine = "\n" };
            write(writer);
            await writer.FlushAsync();
        });
    }
}
