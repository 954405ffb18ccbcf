namespace SqlWaitProbe.SqlServer.Catalog.Tests;

/// <summary>
/// One SQL Server version whose <c>master</c> catalog is bound against: the dacpac of the vscode-mssql project in
/// <c>../shared/data/sqlserver-catalog/</c> (provenance and licence in <c>../shared/data/SOURCES.md</c>).
/// </summary>
/// <param name="Major">13 = 2016, 14 = 2017, 15 = 2019, 16 = 2022, 17 = 2025.</param>
/// <param name="Product">e.g. SQL Server 2019.</param>
public sealed record CatalogVersion(int Major, string Product)
{
    /// <summary>The five versions the probe supports, oldest first.</summary>
    public static IReadOnlyList<CatalogVersion> All { get; } =
    [
        new(13, "SQL Server 2016"),
        new(14, "SQL Server 2017"),
        new(15, "SQL Server 2019"),
        new(16, "SQL Server 2022"),
        new(17, "SQL Server 2025"),
    ];

    /// <summary>xUnit data: every major version.</summary>
    public static TheoryData<int> Majors => [.. All.Select(v => v.Major)];

    /// <summary>The version of <paramref name="major"/>.</summary>
    public static CatalogVersion Of(int major) => All.Single(v => v.Major == major);

    /// <summary>The dacpac, found as ../shared beside the repository root (as in CI, where shared/ sits beside the clone).</summary>
    public string DacpacPath => Path.GetFullPath(Path.Combine(TestSupport.TestData.RepoRoot, "..", "shared", "data", "sqlserver-catalog",
        $"vscode-mssql__master{Major}0.dacpac"));
}
