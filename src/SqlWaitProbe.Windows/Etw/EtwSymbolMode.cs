namespace SqlWaitProbe.Windows.Etw;

/// <summary>How <see cref="EtwStackMapper"/> names frames.</summary>
public enum EtwSymbolMode
{
    /// <summary>Every frame is <c>module!module</c> and runs of frames in one module fold into one: ready before any symbol loads.</summary>
    ModulesOnly = 0,
    /// <summary>Frames carry the resolved function name, or the module name where none resolved.</summary>
    Resolved = 1,
}
