using System.Runtime.Versioning;
using Microsoft.Diagnostics.Tracing.Etlx;
using Microsoft.Diagnostics.Tracing.Parsers.Kernel;
using SqlWaitProbe.Windows.Etw;

namespace SqlWaitProbe.Windows.Tests.TraceEventReference;

/// <summary>
/// Reads the profile samples of a trace converted by TraceEvent's TraceLog (Windows only: it reads the .etl through
/// OpenTrace), with their call stacks: what the managed reader's stacks are checked against on Windows.
/// </summary>
[SupportedOSPlatform("windows")]
public sealed class TraceLogStackSource : IEtwStackSource
{
    private readonly TraceLog _log;

    /// <summary>Wraps an open trace log.</summary>
    public TraceLogStackSource(TraceLog log)
    {
        _log = log ?? throw new ArgumentNullException(nameof(log));
    }

    /// <inheritdoc />
    public DateTime StartUtc => _log.SessionStartTime.ToUniversalTime();

    /// <inheritdoc />
    public IEnumerable<EtwSample> Samples()
    {
        var kernelStart = TraceLogFrames.KernelStart(_log);
        foreach (var evt in _log.Events.ByEventType<SampledProfileTraceData>())
        {
            var frames = TraceLogFrames.Of(evt, kernelStart);
            if (frames.Count == 0)
            {
                // No stack was walked: keep the sample with its instruction pointer so CPU totals stay whole.
                frames.Add(new EtwFrame(string.Empty, null, evt.InstructionPointer, evt.InstructionPointer >= kernelStart));
            }

            yield return new EtwSample(evt.ProcessName, evt.ProcessID, evt.ThreadID, evt.ProcessorNumber, evt.TimeStampRelativeMSec, frames);
        }
    }
}
