namespace SqlWaitProbe.Core.Errors;

/// <summary>Recognises "no space left on device" among I/O errors, on Linux and Windows.</summary>
public static class DiskFull
{
    private const int Enospc = 28;
    private const int ErrorHandleDiskFull = unchecked((int)0x80070027);
    private const int ErrorDiskFull = unchecked((int)0x80070070);

    /// <summary>True when <paramref name="e"/> (or an exception inside it) is an I/O error because the disk is full.</summary>
    public static bool Is(Exception? e)
    {
        for (; e is not null; e = e.InnerException)
        {
            if (e is IOException { HResult: Enospc or ErrorHandleDiskFull or ErrorDiskFull })
            {
                return true;
            }
        }

        return false;
    }
}
