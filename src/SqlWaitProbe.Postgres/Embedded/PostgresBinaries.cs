using System.Globalization;
using SqlWaitProbe.Core.Errors;

namespace SqlWaitProbe.Postgres.Embedded;

/// <summary>Finds the PostgreSQL server binaries: the newest <c>/usr/lib/postgresql/N/bin</c>, else <c>initdb</c> on PATH.</summary>
public static class PostgresBinaries
{
    /// <summary>The command that installs the server on Debian and Ubuntu.</summary>
    public const string InstallCommand = "sudo apt-get install -y postgresql postgresql-contrib";

    /// <summary>The folder holding <c>initdb</c>, <c>pg_ctl</c> and <c>postgres</c>, or null when none is installed.</summary>
    public static string? TryFind()
    {
        const string debianRoot = "/usr/lib/postgresql";
        if (Directory.Exists(debianRoot))
        {
            var newest = Directory.GetDirectories(debianRoot)
                .Select(d => (Dir: Path.Combine(d, "bin"), Version: double.TryParse(Path.GetFileName(d), NumberStyles.Float, CultureInfo.InvariantCulture, out var v) ? v : -1))
                .Where(x => x.Version >= 0 && IsComplete(x.Dir))
                .OrderByDescending(x => x.Version)
                .Select(x => x.Dir)
                .FirstOrDefault();
            if (newest is not null)
            {
                return newest;
            }
        }

        foreach (var dir in (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':', StringSplitOptions.RemoveEmptyEntries))
        {
            var initdb = Path.Combine(dir, "initdb");
            if (!File.Exists(initdb))
            {
                continue;
            }

            // Debian links initdb into PATH; the real folder holds pg_ctl and postgres beside it.
            var real = new FileInfo(initdb).ResolveLinkTarget(returnFinalTarget: true)?.FullName ?? initdb;
            var realDir = Path.GetDirectoryName(real)!;
            if (IsComplete(realDir))
            {
                return realDir;
            }
        }

        return null;
    }

    /// <summary>The binaries folder, or an <see cref="EnvironmentProblemException"/> naming what is missing and how to install it.</summary>
    public static string Find() => TryFind()
        ?? throw new EnvironmentProblemException("PostgreSQL server binaries (initdb, pg_ctl) were not found on PATH or in /usr/lib/postgresql/*/bin.", $"Install them with: {InstallCommand}");

    /// <summary>The major version of the binaries in <paramref name="binFolder"/> when it is a Debian layout, else null.</summary>
    public static string? MajorVersion(string binFolder) => Path.GetFileName(Path.GetDirectoryName(binFolder));

    private static bool IsComplete(string dir) =>
        File.Exists(Path.Combine(dir, "initdb")) && File.Exists(Path.Combine(dir, "pg_ctl")) && File.Exists(Path.Combine(dir, "postgres"));
}
