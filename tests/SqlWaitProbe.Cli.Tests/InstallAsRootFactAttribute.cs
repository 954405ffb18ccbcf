namespace SqlWaitProbe.Cli.Tests;

/// <summary>A test of what happens when probe runs as root (installing packages); skipped, with the reason, as a user.</summary>
public sealed class InstallAsRootFactAttribute : FactAttribute
{
    /// <summary>Sets <see cref="FactAttribute.Skip"/> when the tests do not run as root.</summary>
    public InstallAsRootFactAttribute()
    {
        if (Environment.UserName != "root")
        {
            Skip = "runs as root only: as a user, probe prints the install command instead (tested apart)";
        }
    }
}
