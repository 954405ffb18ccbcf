namespace SqlWaitProbe.Reporting.Tests;

/// <summary>A fact skipped, with the reason, when an external program it needs is not installed.</summary>
public sealed class RequiresToolFactAttribute : FactAttribute
{
    public RequiresToolFactAttribute(string tool, string package)
    {
        var found = Path.IsPathRooted(tool)
            ? File.Exists(tool)
            : (Environment.GetEnvironmentVariable("PATH") ?? "").Split(Path.PathSeparator).Any(d => File.Exists(Path.Combine(d, tool)));
        if (!found)
        {
            Skip = $"{tool} is not installed (Debian package {package}); this test needs it";
        }
    }
}
