using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Windows.Selection;

namespace SqlWaitProbe.Windows.Etw;

/// <summary>Whether ETW CPU sampling can run here, answered before anything starts.</summary>
public static class EtwAvailability
{
    /// <summary>
    /// Throws <see cref="BadInputException"/> (exit code 2) off Windows and <see cref="EnvironmentProblemException"/>
    /// (exit code 1) on Windows without elevation.
    /// </summary>
    public static void Ensure()
    {
        if (!OperatingSystem.IsWindows())
        {
            throw new BadInputException(CpuCollectorSelector.EtwNeedsWindows);
        }

        EtwElevation.EnsureElevated();
    }
}
