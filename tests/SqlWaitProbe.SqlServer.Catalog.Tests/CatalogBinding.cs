using System.Diagnostics;
using Microsoft.SqlServer.Dac;
using Microsoft.SqlServer.Dac.Model;

namespace SqlWaitProbe.SqlServer.Catalog.Tests;

/// <summary>
/// One catalog with every probe statement bound against it: the version's master.dacpac is loaded once, the probe's
/// own objects are added, then each batch becomes the body of its own procedure, plus the negative control, and the
/// model is validated once. Every message is kept with the source of the batch it names.
/// </summary>
public sealed partial class CatalogBinding
{
    /// <summary>The planted wrong column: a catalog that binds this without SQL71501 did not load.</summary>
    public const string NegativeControl = "negative control: a misspelt sys.dm_os_spinlock_stats column";

    /// <summary>
    /// The version control: sys.dm_db_page_info appeared in SQL Server 2019, so it must fail on the 2016 and 2017
    /// catalogs and bind on 2019 and later; this shows each catalog really is its version's.
    /// </summary>
    public const string VersionControl = "version control: sys.dm_db_page_info (SQL Server 2019 and later)";

    private static readonly Dictionary<int, Lazy<Task<CatalogBinding>>> Cache =
        CatalogVersion.All.ToDictionary(v => v.Major, v => new Lazy<Task<CatalogBinding>>(() => Task.Run(() => BindAsync(v))));

    /// <summary>Starts binding every catalog at once (the first test to ask pays for all; later ones find them done).</summary>
    public static void StartAll()
    {
        foreach (var lazy in Cache.Values)
        {
            _ = lazy.Value;
        }
    }

    private CatalogBinding(CatalogVersion version, IReadOnlyList<BindingCase> cases, IReadOnlyList<(string Source, DacModelMessage Message)> messages,
        TimeSpan load, TimeSpan validate)
    {
        Version = version;
        Cases = cases;
        Messages = messages;
        LoadTime = load;
        ValidateTime = validate;
    }

    /// <summary>The catalog's version.</summary>
    public CatalogVersion Version { get; }

    /// <summary>What was put into the model, in order (the negative control last).</summary>
    public IReadOnlyList<BindingCase> Cases { get; }

    /// <summary>Every message of loading, adding and validating, with the source it belongs to.</summary>
    public IReadOnlyList<(string Source, DacModelMessage Message)> Messages { get; }

    /// <summary>Time to load the dacpac.</summary>
    public TimeSpan LoadTime { get; }

    /// <summary>Time to add the cases and validate.</summary>
    public TimeSpan ValidateTime { get; }

    /// <summary>The binding of <paramref name="major"/>, made once per test run and shared by every test.</summary>
    public static Task<CatalogBinding> OfAsync(int major)
    {
        StartAll();
        return Cache[major].Value;
    }

    /// <summary>Messages (errors and warnings alike) of one source, as one readable line each.</summary>
    public IReadOnlyList<string> MessagesOf(string source) =>
        [.. Messages.Where(m => m.Source == source).Select(m => Describe(m.Message))];

    /// <summary>A message as the catalog gives it: prefix, number, type and text.</summary>
    public static string Describe(DacModelMessage m) => $"{m.Prefix}{m.Number} ({m.MessageType}): {m.Message}";

    private static async Task<CatalogBinding> BindAsync(CatalogVersion version)
    {
        if (!File.Exists(version.DacpacPath))
        {
            throw new FileNotFoundException($"the {version.Product} catalog is missing: {version.DacpacPath} (it comes from ../shared/data/sqlserver-catalog beside the repository)");
        }

        var cases = (await ProbeStatements.ForAsync(version.Major)).ToList();
        cases.Add(new BindingCase(NegativeControl, "SELECT sl.name, sl.colisions FROM sys.dm_os_spinlock_stats AS sl;"));
        cases.Add(new BindingCase(VersionControl, "SELECT p.page_type_desc FROM sys.dm_db_page_info(1, 1, 1, 'LIMITED') AS p;"));
        var clock = Stopwatch.StartNew();
        using var model = TSqlModel.LoadFromDacpac(version.DacpacPath, new ModelLoadOptions(DacSchemaModelStorageType.Memory, loadAsScriptBackedModel: false));
        var load = clock.Elapsed;
        var options = new TSqlObjectOptions { QuotedIdentifier = true, AnsiNulls = true };
        var sources = new Dictionary<string, string>(StringComparer.Ordinal);
        var n = 0;
        foreach (var c in cases.OrderBy(c => c.IsObject ? 0 : 1))
        {
            var name = $"probe_catalog_case_{++n:D4}";
            sources[name] = c.Source;
            model.AddOrUpdateObjects(c.IsObject ? c.Sql : $"CREATE PROCEDURE dbo.[{name}]\nAS\nBEGIN\n{c.Sql.Trim()}\nEND;", name, options);
        }

        // A message names the procedure it concerns ([dbo].[probe_catalog_case_0042]); messages naming none belong to the model.
        var messages = model.Validate()
            .Select(m => (CaseName().Match(m.Message) is { Success: true } found ? sources[found.Value] : "(model)", m))
            .ToList();
        return new CatalogBinding(version, cases, messages, load, clock.Elapsed - load);
    }

    [System.Text.RegularExpressions.GeneratedRegex(@"probe_catalog_case_\d{4}")]
    private static partial System.Text.RegularExpressions.Regex CaseName();
}
