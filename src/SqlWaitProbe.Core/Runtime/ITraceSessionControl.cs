namespace SqlWaitProbe.Core.Runtime;

/// <summary>Lists and stops OS trace sessions (ETW on Windows); <c>probe cleanup</c> stops only those its own dead runs recorded.</summary>
public interface ITraceSessionControl
{
    /// <summary>Names of the trace sessions active now.</summary>
    IReadOnlyCollection<string> ActiveSessions();

    /// <summary>Stops one session; false when it could not be stopped.</summary>
    bool Stop(string name);
}
