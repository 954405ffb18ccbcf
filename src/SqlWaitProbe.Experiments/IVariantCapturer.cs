namespace SqlWaitProbe.Experiments;

/// <summary>Runs one variant's capture (the command line's capture session, given the variant's server and session settings).</summary>
public interface IVariantCapturer
{
    /// <summary>Captures <paramref name="capture"/> into its bundle; a signal ends it as <c>interrupted</c> rather than throwing.</summary>
    Task<VariantOutcome> CaptureAsync(VariantCapture capture, IProgress<string> progress, CancellationToken cancellationToken);
}
