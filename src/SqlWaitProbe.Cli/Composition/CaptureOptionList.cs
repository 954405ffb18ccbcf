using SqlWaitProbe.Capture;
using SqlWaitProbe.Core.Collectors;
using SqlWaitProbe.Core.Engines;
using SqlWaitProbe.Core.Options;
using SqlWaitProbe.Modules;

namespace SqlWaitProbe.Cli.Composition;

/// <summary>
/// Where the options of <c>probe capture</c> come from: the session's, the ones every engine reads, the collectors',
/// and each registered engine's own. Each is declared once where it is used; this only gathers them.
/// </summary>
internal static class CaptureOptionList
{
    /// <summary>Every declared option of <c>probe capture</c>; the binder orders them for help.</summary>
    public static IReadOnlyList<IOptionSpec> All { get; } =
    [
        EngineCatalog.Engine, .. SessionOptions.All, .. CommonOptions.All, .. CpuOptions.All, .. Registered.ModuleCaptureOptions,
    ];
}
