using SqlWaitProbe.Cli.Composition;
using SqlWaitProbe.Cli.Infrastructure;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.TestSupport;

namespace SqlWaitProbe.Cli.Tests;

/// <summary>
/// A password typed at the prompt when a watch starts is given to every later window from memory: no window asks
/// again (nobody is at the terminal hours later), and none writes it into its options. The windows are SQL Server ones,
/// the engine that prompts; none connects here (no SQL Server on this machine), the engines are only made.
/// </summary>
public sealed class WatchPasswordTests
{
    [Fact]
    public void A_password_typed_once_reaches_every_later_window_without_a_second_prompt_and_is_in_no_window_s_options()
    {
        var prompts = new List<string>();
        var secret = new RememberedSecret(prompt =>
        {
            prompts.Add(prompt);
            return "typed-Secret-91";
        });
        var options = OptionValues.None
            .With(EngineCatalog.Engine, "sqlserver")
            .With(CommonOptions.Server, "db1.example")
            .With(CommonOptions.User, "probe_user");
        var root = TestData.TempFolder();

        // As the watch does: the engine of its check first (the prompt), then a window every --keep.
        _ = EngineCatalog.Create(WatchWindows.ForWindow(options, Path.Combine(root, "w-0"), TimeSpan.FromMinutes(1)), new EngineContext(secret.Read, Core.Runtime.RunScope.NewCapture()));
        var host = new WatchWindows(options, new TestConsole(), verbose: false, secret);
        var requests = Enumerable.Range(1, 3)
            .Select(n => host.WindowRequest(Path.Combine(root, "w-" + n), TimeSpan.FromMinutes(1), CancellationToken.None, () => null, () => null))
            .ToList();

        Assert.Equal(["Password for probe_user: "], prompts);
        Assert.Equal(1, secret.Asked);
        Assert.All(requests, r => Assert.DoesNotContain(r.Options.Values, v => v.Contains("typed-Secret-91", StringComparison.Ordinal)));
        Assert.Empty(Directory.EnumerateFiles(root, "*", SearchOption.AllDirectories));
    }

    [Fact]
    public void Without_a_terminal_a_window_asks_nothing_and_says_how_to_give_the_password()
    {
        var secret = new RememberedSecret(null);
        var options = OptionValues.None
            .With(EngineCatalog.Engine, "sqlserver")
            .With(CommonOptions.Server, "db1.example")
            .With(CommonOptions.User, "probe_user");
        var host = new WatchWindows(options, new TestConsole(), verbose: false, secret);

        var e = Assert.Throws<Core.Errors.BadInputException>(() => host.WindowRequest(Path.Combine(TestData.TempFolder(), "w-1"), TimeSpan.FromMinutes(1), CancellationToken.None, () => null, () => null));
        Assert.Contains("--password-env", e.Message);
        Assert.Equal(0, secret.Asked);
    }
}
