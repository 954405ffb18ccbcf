using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.ServerSettings;
using SqlWaitProbe.Experiments;
using SqlWaitProbe.Experiments.Files;
using SqlWaitProbe.Postgres.ServerSettings;
using SqlWaitProbe.SqlServer.ServerSettings;

namespace SqlWaitProbe.Experiments.Tests;

/// <summary>Experiment files as users write them: what is read, and each mistake as one line naming the file and line.</summary>
public sealed class ExperimentFileReaderTests
{
    private const string WorkMem = """
        engine: postgres
        setup: |
          CREATE TABLE t AS SELECT g AS id, md5(g::text) AS pad FROM generate_series(1, 1000) g;
          ANALYZE t;
        teardown: DROP TABLE t;
        workload:
          sql: SELECT count(*) FROM (SELECT pad FROM t ORDER BY pad) s
        threads: [1, 2]
        iterations: 5
        variants:
          - name: small
            settings:
              work_mem: 64kB
          - name: large
            settings:
              work_mem: 256MB
        """;

    // The engines as the probe registers them, in help order.
    private static readonly Dictionary<string, IExperimentEngine> Engines = new(StringComparer.Ordinal)
    {
        ["postgres"] = new PostgresExperimentEngine(),
        ["sqlserver"] = new SqlServerExperimentEngine(),
    };

    private static ExperimentDefinition Parse(string text) => ExperimentFileReader.Parse(text, "exp.yaml", Path.GetTempPath(), Engines);

    private static BadInputException Bad(string text) => Assert.Throws<BadInputException>(() => Parse(text));

    [Fact]
    public void A_postgres_file_reads_into_its_variants_settings_and_fixed_work()
    {
        var experiment = Parse(WorkMem);
        Assert.Equal("postgres", experiment.Engine);
        Assert.Null(experiment.Server);
        Assert.Equal([1, 2], experiment.Threads);
        Assert.Equal(5, experiment.IterationsPerSession);
        Assert.Null(experiment.Duration);
        Assert.Equal(["small", "large"], experiment.Variants.Select(v => v.Name));
        Assert.Equal(new SettingRequest("work_mem", "64kB", 13), Assert.Single(experiment.Variants[0].Settings));
        Assert.Equal(3, experiment.Setup!.Line);
        Assert.StartsWith("CREATE TABLE t", experiment.Setup.Text, StringComparison.Ordinal);
        Assert.Equal("DROP TABLE t;", experiment.Teardown!.Text);
        Assert.Equal(2, PostgresSettingCatalog.Instance.Split(experiment.Setup.Text).Count);
    }

    [Fact]
    public void Json_is_read_as_yaml()
    {
        var experiment = Parse("""{"engine": "postgres", "workload": "hashbytes", "variants": [{"name": "a"}, {"name": "b", "settings": {"jit": "off"}}]}""");
        Assert.Equal("hashbytes", experiment.Workload.BuiltIn);
        Assert.Equal("jit", experiment.Variants[1].Settings[0].Name);
    }

    [Theory]
    [InlineData("engine: postgres\nworkload: hashbytes\nvariantz: []\n", 3, "unknown key 'variantz'", "did you mean 'variants'")]
    [InlineData("engine: postgres\nworkload: hashbytes\nvariants: []\n", 3, "the variant list is empty", null)]
    [InlineData("engine: postgres\nworkload: hashbytes\nvariants:\n  - name: a\n  - name: a\n", 5, "two variants are named 'a' (the first on line 4)", null)]
    [InlineData("engine: postgress\nworkload: hashbytes\nvariants:\n  - name: a\n", 1, "engine 'postgress' is not known", "did you mean 'postgres'")]
    [InlineData("engine: postgres\nworkload: hashbytes\nduration: 5s\niterations: 3\nvariants:\n  - name: a\n", 3, "give duration or iterations, not both", null)]
    [InlineData("engine: postgres\nworkload: hashbytes\nvariants:\n  - name: a\n    settings:\n      work_mem:\n", 6, "setting work_mem has no value", null)]
    [InlineData("engine: postgres\nworkload: [x\n", 3, "is not valid YAML", null)]
    [InlineData("engine: postgres\nvariants:\n  - name: a\n", 1, "names no workload", null)]
    public void A_mistake_is_one_line_naming_the_file_and_line(string text, int line, string says, string? hint)
    {
        var e = Bad(text);
        Assert.Equal("exp.yaml", e.File);
        Assert.Equal(line, e.Line);
        Assert.Contains(says, e.Message, StringComparison.Ordinal);
        if (hint is not null)
        {
            Assert.Contains(hint, e.Message, StringComparison.Ordinal);
        }

        Assert.DoesNotContain('\n', e.OneLine);
    }

    [Fact]
    public void A_misspelt_postgres_setting_is_refused_with_the_nearest_name()
    {
        var experiment = Parse(WorkMem.Replace("work_mem: 64kB", "work_mme: 64kB", StringComparison.Ordinal));
        var e = Assert.Throws<BadInputException>(() => ExperimentChecks.Check(experiment, PostgresSettingCatalog.Instance));
        Assert.Equal(13, e.Line);
        Assert.Contains("unknown setting 'work_mme'", e.Message, StringComparison.Ordinal);
        Assert.Contains("did you mean 'work_mem'", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_value_of_the_wrong_kind_is_refused_before_anything_runs()
    {
        var experiment = Parse(WorkMem.Replace("work_mem: 256MB", "work_mem: lots", StringComparison.Ordinal));
        var e = Assert.Throws<BadInputException>(() => ExperimentChecks.Check(experiment, PostgresSettingCatalog.Instance));
        Assert.Equal(16, e.Line);
        Assert.Contains("numeric setting", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_restart_setting_on_a_server_the_probe_did_not_start_is_refused()
    {
        var experiment = Parse("engine: postgres\nserver: Host=db1;Username=me\nworkload: hashbytes\nvariants:\n  - name: a\n    settings:\n      shared_buffers: 1GB\n");
        var e = Assert.Throws<BadInputException>(() => ExperimentChecks.Check(experiment, PostgresSettingCatalog.Instance));
        Assert.Equal(7, e.Line);
        Assert.Contains("only the embedded server", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Session_level_settings_are_set_on_each_session_and_server_level_ones_altered_with_a_reload_and_restored()
    {
        var catalog = PostgresSettingCatalog.Instance;
        var workMem = catalog.Find("work_mem")!;
        Assert.Equal(["SET work_mem = '64kB'"], catalog.ApplyStatements(workMem, "64kB"));
        Assert.Empty(catalog.RestoreStatements(workMem, new("4MB", null)));
        var checkpoint = catalog.Find("checkpoint_timeout")!;
        Assert.Equal(["ALTER SYSTEM SET checkpoint_timeout = '10min'", "SELECT pg_reload_conf()"], catalog.ApplyStatements(checkpoint, "10min"));
        Assert.Equal(["ALTER SYSTEM RESET checkpoint_timeout", "SELECT pg_reload_conf()"], catalog.RestoreStatements(checkpoint, new("5min", null)));
        Assert.Equal(["ALTER SYSTEM SET checkpoint_timeout = '7min'", "SELECT pg_reload_conf()"], catalog.RestoreStatements(checkpoint, new("7min", "7min")));
    }

    [Fact]
    public void A_sql_server_setup_script_splits_on_go_lines_and_a_syntax_error_names_its_batch_and_line()
    {
        var experiment = ExperimentFileReader.Parse(
            "engine: sqlserver\nserver: db1\nsetup: |\n  CREATE TABLE dbo.t (id int);\n  GO\n  SELEC * FROM dbo.t;\n  GO\nworkload:\n  proc: dbo.p\nvariants:\n  - name: a\n",
            "ss.yaml", Path.GetTempPath(), Engines);
        Assert.Equal(2, SqlServerSettingCatalog.Instance.Split(experiment.Setup!.Text).Count);
        var e = Assert.Throws<BadInputException>(() => ExperimentChecks.Check(experiment, SqlServerSettingCatalog.Instance));
        Assert.Equal("ss.yaml", e.File);
        Assert.Equal(6, e.Line);
        Assert.Contains("setup, batch 2", e.Message, StringComparison.Ordinal);
    }
}
