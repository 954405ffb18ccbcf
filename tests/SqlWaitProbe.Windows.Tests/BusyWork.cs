using System.Security.Cryptography;

namespace SqlWaitProbe.Windows.Tests;

/// <summary>Keeps CPUs busy hashing (through CNG's bcrypt on Windows, like HASHBYTES) for a while.</summary>
internal static class BusyWork
{
    public static long HashFor(TimeSpan duration, int threads = 2)
    {
        long total = 0;
        var until = DateTime.UtcNow + duration;
        Parallel.For(0, threads, _ =>
        {
            // Large inputs keep the time in the hash rounds (bcryptprimitives), not in the call overhead.
            var buffer = new byte[16 * 1024];
            long n = 0;
            while (DateTime.UtcNow < until)
            {
                buffer[0] = (byte)n;
                n += SHA256.HashData(buffer)[0] & 1;
            }

            Interlocked.Add(ref total, n);
        });
        return total;
    }
}
