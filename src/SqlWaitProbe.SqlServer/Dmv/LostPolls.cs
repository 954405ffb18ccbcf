using Microsoft.Data.SqlClient;
using Serilog;

namespace SqlWaitProbe.SqlServer.Dmv;

/// <summary>
/// Which failures of a server poll lose only that poll: a server error (a timeout, a killed query) leaves a gap the next
/// poll covers, so the loop goes on and the log says what was lost.
/// </summary>
internal static class LostPolls
{
    /// <summary>The rule for the shared polling loop, logging each lost poll of <paramref name="what"/>.</summary>
    public static Func<Exception, bool> OnServerError(string what) => e =>
    {
        if (e is not SqlException)
        {
            return false;
        }

        Log.Warning("{What} failed: {Message}", what, e.Message);
        return true;
    };
}
