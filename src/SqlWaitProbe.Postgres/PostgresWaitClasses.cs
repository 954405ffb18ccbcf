using SqlWaitProbe.Core.Waits;

namespace SqlWaitProbe.Postgres;

/// <summary>Which PostgreSQL waits are idle, intended or the client's; every other one is a resource wait.</summary>
public static class PostgresWaitClasses
{
    /// <summary>A PostgreSQL <c>Class:Event</c>.</summary>
    public static WaitClass Of(string waitType)
    {
        // Background processes' main loops wait in Activity; a client backend between statements in Client:ClientRead.
        if (waitType.StartsWith("Activity:", StringComparison.Ordinal))
        {
            return WaitClass.Idle;
        }

        return waitType switch
        {
            "Timeout:PgSleep" or "Timeout:VacuumDelay" or "Timeout:CheckpointWriteDelay" or "Timeout:RecoveryApplyDelay" or "Timeout:BaseBackupThrottle" => WaitClass.Intended,

            // Read from the client: the next statement (inside a transaction, the only place the ledger keeps it);
            // write to the client: results it does not read fast enough.
            "Client:ClientRead" or "Client:ClientWrite" => WaitClass.Client,
            _ => WaitClass.Resource,
        };
    }
}
