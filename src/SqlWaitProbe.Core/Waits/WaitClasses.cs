namespace SqlWaitProbe.Core.Waits;

/// <summary>
/// The names of the wait classes. Which waits of an engine are idle, intended or the client's is the engine's own
/// knowledge (<see cref="Engines.IEngineModule.ClassOfWait"/>); every other wait is a resource wait.
/// </summary>
public static class WaitClasses
{
    /// <summary>How a class is named in reports and findings.json: <c>resource</c>, <c>idle</c>, <c>intended</c>, <c>client</c>.</summary>
    public static string Name(WaitClass c) => c switch
    {
        WaitClass.Idle => "idle",
        WaitClass.Intended => "intended",
        WaitClass.Client => "client",
        _ => "resource",
    };
}
