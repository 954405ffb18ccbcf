using System.Globalization;

namespace SqlWaitProbe.SqlServer.Connection;

/// <summary>
/// Microsoft.Data.SqlClient 2.1 refused globalization-invariant mode (not yet re-checked against a server with 7.1), so the
/// processes that use it run with ICU; this keeps their default formatting invariant all the same.
/// </summary>
public static class SqlClientCulture
{
    /// <summary>Makes the invariant culture the default of the process and of new threads.</summary>
    public static void UseInvariant()
    {
        CultureInfo.DefaultThreadCurrentCulture = CultureInfo.InvariantCulture;
        CultureInfo.DefaultThreadCurrentUICulture = CultureInfo.InvariantCulture;
        CultureInfo.CurrentCulture = CultureInfo.InvariantCulture;
        CultureInfo.CurrentUICulture = CultureInfo.InvariantCulture;
    }
}
