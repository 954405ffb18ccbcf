namespace SqlWaitProbe.Windows.Tests;

/// <summary>A test that needs Windows (ETW, PDH); reported as skipped elsewhere.</summary>
public sealed class WindowsFactAttribute : FactAttribute
{
    /// <summary>Skips the test off Windows.</summary>
    public WindowsFactAttribute()
    {
        if (!OperatingSystem.IsWindows())
        {
            Skip = "needs Windows";
        }
    }
}
