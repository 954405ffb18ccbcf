using SqlWaitProbe.Core.Bundle;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Errors;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Core.Runtime;
using SqlWaitProbe.Modules;

namespace SqlWaitProbe.Capture.Tests;

/// <summary>
/// A request is validated before anything starts, from declared options alone: the session's, the collectors' of
/// every OS, then the modules' own rules. The engine is the registered PostgreSQL one, created and never started.
/// </summary>
public sealed class CaptureRequestTests
{
    private static readonly OptionSpec<int> Rate = new("--test-rate")
    {
        Help = "A collector's rate.",
        HelpOrder = 900,
        Default = () => 5,
        Check = r => r < 1 ? "--test-rate must be at least 1" : null,
    };

    [Fact]
    public void Duration_and_iterations_together_are_one_input_error()
    {
        var e = Assert.Throws<BadInputException>(() => Build(OptionValues.Of((CommonOptions.Duration, "5s"), (CommonOptions.Iterations, 10L))));
        Assert.Equal("give --duration or --iterations, not both", e.Message);
    }

    [Fact]
    public void A_collector_option_is_checked_even_when_its_os_is_another()
    {
        var e = Assert.Throws<BadInputException>(() => Build(OptionValues.Of((Rate, 0)), otherOsOptions: [Rate]));
        Assert.Equal("--test-rate must be at least 1", e.Message);
    }

    [Fact]
    public void A_module_rule_runs_after_the_option_checks()
    {
        var e = Assert.Throws<BadInputException>(() => Build(OptionValues.Of((Rate, 3)), modules: [new RuleModule()]));
        Assert.Equal("--test-rate 3 is odd", e.Message);
    }

    [Fact]
    public void The_manifest_keeps_the_given_options_as_the_engine_redacts_them()
    {
        var request = Build(OptionValues.Of((CommonOptions.Server, "Host=db;Username=me;Password=secret"), (CommonOptions.Threads, "4")));

        Assert.DoesNotContain("secret", request.Options["--server"], StringComparison.Ordinal);
        Assert.Contains("Host=db", request.Options["--server"], StringComparison.Ordinal);
        Assert.Equal("4", request.Options["--threads"]);
        Assert.Equal(["baseline", "load"], request.Plan.Phases.Select(p => p.Name));
    }

    private static CaptureRequest Build(OptionValues values, IReadOnlyList<IOsCollectorModule>? modules = null, IReadOnlyList<IOptionSpec>? otherOsOptions = null)
    {
        var options = values.With(CommonOptions.Workload, "noop");
        var scope = new RunScope("capture", "t1");
        var engine = Registered.Engines.Single(e => e.Name == "postgres").Create(options, new EngineContext(null, scope));
        return CaptureRequest.Build(options, engine, new OsCollectorCatalog(modules ?? [], otherOsOptions ?? []), scope);
    }

    // Checks a rule across its own option, as the perf module checks lbr against the machine.
    private sealed class RuleModule : IOsCollectorModule
    {
        public string Name => "rule";

        public IReadOnlyList<IOptionSpec> Options => [Rate];

        public CollectorStage Stage => CollectorStage.Counters;

        public string? Validate(OptionValues options) => options.Get(Rate) % 2 == 1 ? $"--test-rate {options.Get(Rate)} is odd" : null;

        public IReadOnlyList<CollectorChoice> Choose(OsSetup setup) => [];

        public IEnumerable<ICollector> Create(IReadOnlyList<CollectorChoice> choices, PhaseContext phase, OsSetup setup) => [];
    }
}
