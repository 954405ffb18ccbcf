using Xunit;

namespace SqlWaitProbe.TestSupport;

/// <summary>A fact that needs root on Linux (to run the probe as another user, or to read what only root may); skipped, with the reason, elsewhere.</summary>
public sealed class RootFactAttribute : FactAttribute
{
    public RootFactAttribute()
    {
        if (!OperatingSystem.IsLinux() || Environment.UserName != "root")
        {
            Skip = "needs root on Linux to run the probe as the unprivileged user nobody";
        }
    }
}
