using System.Diagnostics;
using SqlWaitProbe.SqlServer.Commands;

namespace SqlWaitProbe.SqlServer.Xe;

/// <summary>
/// How far the server's clock is ahead of this machine's, measured once with one round trip. Event timestamps come from
/// the server's clock and phase windows from the probe's, so a remote server whose clock is off would otherwise have its
/// events counted in the wrong phase or dropped at the window's edge.
/// </summary>
/// <param name="Offset">Server clock minus this machine's clock at the midpoint of the round trip.</param>
/// <param name="Uncertainty">Half the round trip: offsets smaller than this cannot be told from zero.</param>
public sealed record ServerClock(TimeSpan Offset, TimeSpan Uncertainty)
{
    /// <summary>No correction (dry runs, or a server that did not answer with a time).</summary>
    public static ServerClock Same { get; } = new(TimeSpan.Zero, TimeSpan.Zero);

    /// <summary>Asks the server for its UTC clock and measures the offset against this machine's.</summary>
    public static async Task<ServerClock> MeasureAsync(ISqlCommandSink sink, CancellationToken cancellationToken)
    {
        var before = DateTime.UtcNow;
        var watch = Stopwatch.StartNew();
        var result = await sink.QueryAsync(XeSessionBuilder.ReadClock(), cancellationToken);
        var roundTrip = watch.Elapsed;
        if (result.Rows.Count == 0 || result.Rows[0][0] is not DateTime server)
        {
            return Same;
        }

        return Between(before, roundTrip, DateTime.SpecifyKind(server, DateTimeKind.Utc));
    }

    /// <summary>The offset of a server that answered <paramref name="server"/> to a question asked at <paramref name="before"/>.</summary>
    public static ServerClock Between(DateTime before, TimeSpan roundTrip, DateTime server) =>
        new(server - (before + roundTrip / 2), roundTrip / 2);

    /// <summary>An event time of the server on this machine's clock; offsets within the uncertainty are left alone.</summary>
    public DateTime ToLocal(DateTime serverUtc) => Offset.Duration() > Uncertainty ? serverUtc - Offset : serverUtc;
}
