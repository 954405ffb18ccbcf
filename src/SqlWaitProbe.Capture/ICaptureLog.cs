namespace SqlWaitProbe.Capture;

/// <summary>
/// Where a capture logs: the host (the command line) decides the console side; the session starts the file
/// <c>capture.log</c> inside the bundle and stops it before the manifest hashes the files.
/// </summary>
public interface ICaptureLog
{
    /// <summary>Starts logging to <paramref name="path"/> as well as the host's usual place.</summary>
    void Start(string path);

    /// <summary>Flushes and closes the file; the host's usual logging continues.</summary>
    Task StopAsync();
}
