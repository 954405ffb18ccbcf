namespace SqlWaitProbe.Core.Files;

/// <summary>Removes a folder the probe made, with everything in it, where a failure must not hide the error being reported.</summary>
public static class FolderRemoval
{
    /// <summary>Deletes <paramref name="folder"/> recursively if it exists; returns why it could not, or null.</summary>
    public static string? TryDelete(string folder)
    {
        try
        {
            if (Directory.Exists(folder))
            {
                Directory.Delete(folder, recursive: true);
            }

            return null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return e.Message;
        }
    }
}
