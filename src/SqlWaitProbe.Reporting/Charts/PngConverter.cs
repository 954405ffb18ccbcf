using System.Diagnostics;

namespace SqlWaitProbe.Reporting.Charts;

/// <summary>Converts SVG files to PNG with <c>rsvg-convert</c> (librsvg) when it is on PATH.</summary>
public static class PngConverter
{
    /// <summary>The tool's name.</summary>
    public const string Tool = "rsvg-convert";

    /// <summary>The full path of rsvg-convert, or null when it is not on PATH.</summary>
    public static string? Find()
    {
        foreach (var dir in (Environment.GetEnvironmentVariable("PATH") ?? "").Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries))
        {
            foreach (var name in (ReadOnlySpan<string>)[Tool, Tool + ".exe"])
            {
                var candidate = Path.Combine(dir, name);
                if (File.Exists(candidate))
                {
                    return candidate;
                }
            }
        }

        return null;
    }

    /// <summary>Writes <paramref name="png"/> from <paramref name="svg"/> at the given width; false (and no file) when conversion failed.</summary>
    public static bool TryConvert(string tool, string svg, string png, int width)
    {
        var temp = png + ".tmp";
        var info = new ProcessStartInfo(tool) { RedirectStandardError = true, RedirectStandardOutput = true, UseShellExecute = false };
        foreach (var arg in new[] { "-w", width.ToString(System.Globalization.CultureInfo.InvariantCulture), "-b", "white", "-f", "png", "-o", temp, svg })
        {
            info.ArgumentList.Add(arg);
        }

        using var process = Process.Start(info);
        if (process is null)
        {
            return false;
        }

        process.StandardOutput.ReadToEnd();
        process.StandardError.ReadToEnd();
        if (!process.WaitForExit(60_000))
        {
            process.Kill();
            return false;
        }

        if (process.ExitCode != 0 || !File.Exists(temp))
        {
            File.Delete(temp);
            return false;
        }

        File.Move(temp, png, overwrite: true);
        return true;
    }
}
