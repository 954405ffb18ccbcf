namespace SqlWaitProbe.SqlServer.Connection;

/// <summary>Where the connected server runs, as decided after connecting.</summary>
/// <param name="IsLocal">True when the server runs on this machine, so OS collectors (ETW, PDH, off-CPU) run.</param>
/// <param name="ServerPid">The server's <c>sqlservr</c> process here, when its id names one.</param>
/// <param name="Reason">Why, in words for the capture log.</param>
public sealed record SqlServerLocation(bool IsLocal, int? ServerPid, string Reason);
