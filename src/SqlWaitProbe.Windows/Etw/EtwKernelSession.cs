using Microsoft.Diagnostics.Tracing.Session;

namespace SqlWaitProbe.Windows.Etw;

/// <summary>
/// The kernel session of one phase as it is configured before it starts: nothing here calls Windows, so what a session
/// is given (above all the cap on its file) is checked on any OS, and only starting it needs Windows.
/// </summary>
public static class EtwKernelSession
{
    /// <summary>Memory ETW reserves for the session's buffers, MB: enough that a burst of stacks on many CPUs is not lost.</summary>
    public const int BufferSizeMegabytes = 256;

    /// <summary>
    /// A file session writing <paramref name="etlPath"/> sequentially, stopped when disposed, whose file stops growing at
    /// <see cref="EtwCpuSettings.MaxFileMegabytes"/> (ETW's <c>MaximumFileSize</c>): past it ETW drops events and counts
    /// them lost, so a session a killed probe left behind stops writing by itself. Not started: the caller sets the
    /// interval and enables the kernel provider, and disposes it.
    /// </summary>
    public static TraceEventSession Create(string sessionName, string etlPath, EtwCpuSettings settings)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(sessionName);
        ArgumentException.ThrowIfNullOrWhiteSpace(etlPath);
        ArgumentNullException.ThrowIfNull(settings);
        if (settings.MaxFileMegabytes < 1)
        {
            throw new ArgumentOutOfRangeException(nameof(settings), settings.MaxFileMegabytes, "the trace file's cap must be at least 1 MB");
        }

        return new TraceEventSession(sessionName, etlPath)
        {
            StopOnDispose = true,
            BufferSizeMB = BufferSizeMegabytes,
            MaximumFileMB = settings.MaxFileMegabytes,
        };
    }

    /// <summary>The cap in the dry run's words, e.g. <c>each phase's .etl stops growing at 4096 MB (…)</c>.</summary>
    public static string DescribeCap(int maxFileMegabytes) =>
        $"each phase's .etl stops growing at {maxFileMegabytes.ToString(System.Globalization.CultureInfo.InvariantCulture)} MB (ETW MaximumFileSize), so a session a killed capture leaves behind stops writing by itself";
}
