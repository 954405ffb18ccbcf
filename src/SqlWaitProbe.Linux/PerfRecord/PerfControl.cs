using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Text;
using SqlWaitProbe.Core.Os;

namespace SqlWaitProbe.Linux.PerfRecord;

/// <summary>
/// perf record's control FIFOs (<c>-D -1 --control fifo:CTL,ACK</c>): perf opens its events disabled, and acknowledges
/// <c>enable</c> only once it has recorded the processes already running and enabled its events. Without it the probe
/// could only wait for perf's file header, which perf writes before that work; on a loaded machine the work took longer
/// than a 2 s phase, and the phase had no samples at all. Both FIFOs live in the run's private folder.
/// </summary>
public sealed class PerfControl : IDisposable
{
    private readonly string _control;
    private readonly string _ack;
    private int _ackFd = -1;
    private int _controlFd = -1;

    private PerfControl(string control, string ack)
    {
        _control = control;
        _ack = ack;
    }

    /// <summary>How long perf may take to acknowledge <c>enable</c>.</summary>
    public static readonly TimeSpan EnableLimit = TimeSpan.FromSeconds(20);

    /// <summary>True when the installed perf has <c>--control fifo:</c> and <c>-D -1</c> (perf 5.12 and later, Linux).</summary>
    public static bool Supported => OperatingSystem.IsLinux() && PerfVersion.Current is { } v && v >= new Version(5, 12);

    /// <summary>The arguments that make perf start with its events disabled and listen on the FIFOs.</summary>
    public IReadOnlyList<string> Arguments => ["-D", "-1", "--control", $"fifo:{_control},{_ack}"];

    /// <summary>
    /// Makes the two FIFOs beside <paramref name="dataPath"/> and opens the acknowledgement's read end (so perf's own
    /// open of it does not wait); null when the FIFOs cannot be made, and perf then starts as before.
    /// </summary>
    public static PerfControl? Create(string dataPath)
    {
        if (!Supported)
        {
            return null;
        }

        var control = new PerfControl(dataPath + ".ctl", dataPath + ".ack");
        if (Libc.MakeFifo(control._control, Convert.ToUInt32("600", 8)) != 0 || Libc.MakeFifo(control._ack, Convert.ToUInt32("600", 8)) != 0)
        {
            control.Dispose();
            return null;
        }

        control._ackFd = Libc.Open(control._ack, Libc.OpenReadOnly | Libc.OpenNonBlocking | Libc.OpenCloseOnExec);
        if (control._ackFd < 0)
        {
            control.Dispose();
            return null;
        }

        return control;
    }

    /// <summary>
    /// Tells perf to enable its events and waits for its acknowledgement; null when it came, else why not (perf
    /// exited, or did not answer within <see cref="EnableLimit"/>).
    /// </summary>
    public async Task<string?> EnableAsync(Process perf, CancellationToken cancellationToken)
    {
        var clock = Stopwatch.StartNew();

        // A non-blocking open for writing fails (ENXIO) until perf has opened the FIFO for reading.
        var opened = await PollAsync(
            () => (_controlFd = Libc.Open(_control, Libc.OpenWriteOnly | Libc.OpenNonBlocking | Libc.OpenCloseOnExec)) >= 0,
            perf, clock, "perf record exited at once", "perf record did not open its control FIFO", cancellationToken);
        if (opened is not null)
        {
            return opened;
        }

        var enable = Encoding.ASCII.GetBytes("enable\n");
        if (Libc.Write(_controlFd, enable, enable.Length) != enable.Length)
        {
            return $"writing to perf's control FIFO failed (errno {Marshal.GetLastPInvokeError()})";
        }

        var reply = new StringBuilder();
        var buffer = new byte[64];
        return await PollAsync(
            () =>
            {
                for (nint n; (n = Libc.Read(_ackFd, buffer, buffer.Length)) > 0;)
                {
                    reply.Append(Encoding.ASCII.GetString(buffer, 0, (int)n));
                }

                return reply.ToString().Contains("ack", StringComparison.Ordinal);
            },
            perf, clock, "perf record exited before enabling its events", "perf record did not enable its events", cancellationToken);
    }

    /// <summary>
    /// Tries <paramref name="done"/> every 10 ms until it holds (null), perf exits (<paramref name="exited"/> with its
    /// exit code) or <see cref="EnableLimit"/> has passed on <paramref name="clock"/> (<paramref name="late"/>).
    /// </summary>
    private static async Task<string?> PollAsync(Func<bool> done, Process perf, Stopwatch clock, string exited, string late, CancellationToken cancellationToken)
    {
        while (!done())
        {
            if (perf.HasExited)
            {
                return $"{exited} (exit {perf.ExitCode})";
            }

            if (clock.Elapsed > EnableLimit)
            {
                return $"{late} within {EnableLimit.TotalSeconds:0} s";
            }

            await Task.Delay(10, cancellationToken);
        }

        return null;
    }

    /// <inheritdoc />
    public void Dispose()
    {
        if (_controlFd >= 0)
        {
            Libc.Close(_controlFd);
            _controlFd = -1;
        }

        if (_ackFd >= 0)
        {
            Libc.Close(_ackFd);
            _ackFd = -1;
        }

        foreach (var fifo in new[] { _control, _ack })
        {
            try
            {
                File.Delete(fifo);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                // The run folder goes with the run.
            }
        }
    }
}
