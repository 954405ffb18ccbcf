using SqlWaitProbe.Modules;

namespace SqlWaitProbe.Architecture.Tests;

/// <summary>
/// The engine projects as the registered list gives them, so a new engine's project is held to the same rules as the
/// others by its line in <c>Registered.Engines</c> alone, with no list here to extend.
/// </summary>
internal static class RegisteredEngineAssemblies
{
    /// <summary>The assembly (and project folder) name of each registered engine's module, in registration order.</summary>
    public static string[] Names { get; } = [.. Registered.Engines.Select(e => e.GetType().Assembly.GetName().Name!).Distinct()];
}
