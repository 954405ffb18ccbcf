using System.Globalization;
using System.Runtime.CompilerServices;

namespace SqlWaitProbe.Cli.Infrastructure;

/// <summary>
/// The CLI runs with ICU because Microsoft.Data.SqlClient 2.1 refuses globalization-invariant mode; this
/// keeps every command's default formatting invariant (as it was in invariant mode) from the first line of Main.
/// </summary>
internal static class InvariantCultureInitializer
{
    [ModuleInitializer]
    internal static void Initialize()
    {
        CultureInfo.DefaultThreadCurrentCulture = CultureInfo.InvariantCulture;
        CultureInfo.DefaultThreadCurrentUICulture = CultureInfo.InvariantCulture;
        CultureInfo.CurrentCulture = CultureInfo.InvariantCulture;
        CultureInfo.CurrentUICulture = CultureInfo.InvariantCulture;
    }
}
