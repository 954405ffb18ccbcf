using SqlWaitProbe.Windows.Etw;

namespace SqlWaitProbe.Windows.Tests;

/// <summary>
/// The kernel session of a phase as it is configured before it starts, which calls nothing of Windows: the cap on its
/// file is what stops a session a killed probe left behind. That a started session honours it is the Windows job's
/// (<see cref="EtwLiveCaptureTests"/>).
/// </summary>
public sealed class EtwKernelSessionTests
{
    private static readonly string EtlPath = Path.Combine(Path.GetTempPath(), "SqlWaitProbe-r1-load.etl");

    [Fact]
    public void A_phase_session_caps_its_trace_file_at_4096_mb_so_a_session_a_killed_probe_left_stops_writing()
    {
        var session = EtwKernelSession.Create("SqlWaitProbe-r1", EtlPath, new EtwCpuSettings { RunId = "r1", ServerProcess = "sqlservr" });
        try
        {
            Assert.Equal(4096, session.MaximumFileMB);
            Assert.Equal(EtwCpuSettings.DefaultMaxFileMegabytes, session.MaximumFileMB);

            // A sequential file (no circular buffer, no file series) is what ETW stops writing at its maximum size.
            Assert.Equal(0, session.CircularBufferMB);
            Assert.Equal(EtlPath, session.FileName);
            Assert.True(session.StopOnDispose);
            Assert.Equal(EtwKernelSession.BufferSizeMegabytes, session.BufferSizeMB);
        }
        finally
        {
            // Never started: nothing to stop, and stopping would call ETW.
            session.StopOnDispose = false;
            session.Dispose();
        }
    }

    [Fact]
    public void The_cap_follows_the_settings_and_a_cap_under_1_mb_is_refused()
    {
        var session = EtwKernelSession.Create("SqlWaitProbe-r1", EtlPath, new EtwCpuSettings { RunId = "r1", ServerProcess = "sqlservr", MaxFileMegabytes = 64 });
        try
        {
            Assert.Equal(64, session.MaximumFileMB);
        }
        finally
        {
            session.StopOnDispose = false;
            session.Dispose();
        }

        Assert.Throws<ArgumentOutOfRangeException>(() => EtwKernelSession.Create("SqlWaitProbe-r1", EtlPath,
            new EtwCpuSettings { RunId = "r1", ServerProcess = "sqlservr", MaxFileMegabytes = 0 }));
    }
}
