using System.Text.RegularExpressions;

namespace SqlWaitProbe.SqlServer.Watch;

/// <summary>Checks a watch trigger's wait name against SQL Server's: a <c>wait_type</c> or its prefix (<c>LCK_M_</c>), which has no class part.</summary>
public static partial class SqlServerWaitNames
{
    /// <summary>Why <paramref name="name"/> cannot name a SQL Server wait type, or null when it can.</summary>
    public static string? Check(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        return WaitType().IsMatch(name)
            ? null
            : $"'{name}' is not a SQL Server wait type: a wait_type is letters, digits and _ with no class part (e.g. wait:LCK_M_>30%, wait:PAGELATCH_EX>20%)";
    }

    [GeneratedRegex("^[A-Za-z][A-Za-z0-9_]*$")]
    private static partial Regex WaitType();
}
