using System.Buffers.Binary;
using System.IO.Compression;
using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Runtime;

namespace SqlWaitProbe.Etl;

/// <summary>
/// A trace to read, whatever it came as: an .etl file (read in place), PerfView's .etl.zip (its one .etl entry
/// copied to a private scratch file, under the limits every untrusted zip is held to), or a pipe (copied likewise).
/// The merge of per-processor buffers needs to seek, which a zip entry or a pipe cannot. Disposing deletes the copy.
/// </summary>
public sealed class EtlFile : IDisposable
{
    private readonly RunFolder[] _scratch;

    private EtlFile(Stream stream, string name, params RunFolder[] scratch)
    {
        Stream = stream;
        Name = name;
        _scratch = scratch;
    }

    /// <summary>The trace, seekable.</summary>
    public Stream Stream { get; }

    /// <summary>The trace as errors name it: the path, and the entry for a zip (<c>trace.etl.zip (trace.etl)</c>).</summary>
    public string Name { get; }

    /// <summary>
    /// True when <paramref name="head"/> (the first bytes of a file, 80 or more) starts like an .etl file: a buffer
    /// header, then a system event header (32- or 64-bit) of the EventTrace log file header event.
    /// </summary>
    public static bool LooksLikeEtl(ReadOnlySpan<byte> head) =>
        head.Length >= 80 && head[0x4B] == 0xC0 && head[0x4A] is 0x01 or 0x02 && BinaryPrimitives.ReadUInt16LittleEndian(head[0x4E..]) == 0;

    /// <summary>True when <paramref name="head"/> starts like a zip archive (a local file header).</summary>
    public static bool LooksLikeZip(ReadOnlySpan<byte> head) => head.Length >= 4 && head[0] == 'P' && head[1] == 'K' && head[2] == 3 && head[3] == 4;

    /// <summary>Opens the .etl or .etl.zip at <paramref name="path"/>, as its content says.</summary>
    public static EtlFile Open(string path, BundleLimits limits)
    {
        var file = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite, 1 << 16, FileOptions.RandomAccess);
        Span<byte> head = stackalloc byte[4];
        var n = file.ReadAtLeast(head, head.Length, throwOnEndOfStream: false);
        file.Position = 0;
        if (!LooksLikeZip(head[..n]))
        {
            return new EtlFile(file, path);
        }

        using (file)
        {
            return FromZip(file, path, limits);
        }
    }

    /// <summary>Copies a pipe holding an .etl or .etl.zip to a scratch file and opens it.</summary>
    public static EtlFile FromPipe(Stream pipe, string name, BundleLimits limits)
    {
        ArgumentNullException.ThrowIfNull(pipe);
        var scratch = TemporaryRuns.Begin("stacks");
        try
        {
            var copy = Path.Combine(scratch.Path, "input");
            using (var output = new FileStream(copy, FileMode.CreateNew, FileAccess.Write))
            {
                CopyCapped(pipe, output, limits.ZipEntryBytes, name, $"{limits.ZipEntryBytes >> 20} MiB", BundleLimits.ZipEntryVariable);
            }

            var opened = Open(copy, limits);
            return new EtlFile(opened.Stream, opened.Name == copy ? name : name + opened.Name[copy.Length..], [scratch, .. opened._scratch]);
        }
        catch
        {
            TemporaryRuns.End(scratch);
            throw;
        }
    }

    /// <inheritdoc />
    public void Dispose()
    {
        Stream.Dispose();
        foreach (var run in _scratch)
        {
            TemporaryRuns.End(run);
        }
    }

    private static EtlFile FromZip(Stream file, string path, BundleLimits limits)
    {
        // The archive reads its directory lazily: damage can surface at any step, and each is the same bad input.
        try
        {
            return FromArchive(file, path, limits);
        }
        catch (InvalidDataException)
        {
            throw new BadInputException("not a zip archive, or the archive is corrupt or truncated", path);
        }
    }

    private static EtlFile FromArchive(Stream file, string path, BundleLimits limits)
    {
        using (var archive = new ZipArchive(file, ZipArchiveMode.Read, leaveOpen: true))
        {
            var traces = archive.Entries.Where(e => e.FullName.EndsWith(".etl", StringComparison.OrdinalIgnoreCase) && !e.FullName.EndsWith('/')).ToArray();
            if (traces.Length != 1)
            {
                throw new BadInputException(traces.Length == 0
                    ? "the zip holds no .etl file (PerfView's .etl.zip holds one)"
                    : $"the zip holds {traces.Length} .etl files ({string.Join(", ", traces.Take(5).Select(e => BundleNames.Shorten(e.FullName)))}); extract the one to read", path);
            }

            var entry = traces[0];
            var name = $"{path} ({BundleNames.Shorten(entry.FullName)})";
            if (entry.Length > limits.ZipEntryBytes)
            {
                throw BundleLimits.Exceeded($"the .etl expands to {entry.Length >> 20} MiB", $"{limits.ZipEntryBytes >> 20} MiB per entry", BundleLimits.ZipEntryVariable, path);
            }

            if (entry.Length > 1 << 20 && entry.Length > limits.ZipRatio * Math.Max(1, entry.CompressedLength))
            {
                throw BundleLimits.Exceeded($"the .etl expands {entry.Length / Math.Max(1, entry.CompressedLength)}:1 (a zip bomb?)", $"{limits.ZipRatio}:1 compression", BundleLimits.ZipRatioVariable, path);
            }

            var scratch = TemporaryRuns.Begin("stacks");
            try
            {
                var copy = Path.Combine(scratch.Path, "trace.etl");
                using (var input = entry.Open())
                using (var output = new FileStream(copy, FileMode.CreateNew, FileAccess.Write))
                {
                    CopyCapped(input, output, entry.Length, path, "the size its zip header gives", null);
                }

                return new EtlFile(new FileStream(copy, FileMode.Open, FileAccess.Read, FileShare.Read, 1 << 16, FileOptions.RandomAccess), name, scratch);
            }
            catch (InvalidDataException)
            {
                TemporaryRuns.End(scratch);
                throw new BadInputException("the zip's .etl entry is corrupt or truncated", path);
            }
            catch
            {
                TemporaryRuns.End(scratch);
                throw;
            }
        }
    }

    private static void CopyCapped(Stream input, Stream output, long cap, string name, string capText, string? variable)
    {
        var buffer = new byte[1 << 16];
        long written = 0;
        int n;
        while ((n = input.Read(buffer)) > 0)
        {
            written += n;
            if (written > cap)
            {
                throw variable is null
                    ? new BadInputException($"the .etl entry is larger than {capText}; the zip is damaged", name)
                    : BundleLimits.Exceeded("the input is larger than its limit", capText, variable, name);
            }

            output.Write(buffer, 0, n);
        }
    }
}
