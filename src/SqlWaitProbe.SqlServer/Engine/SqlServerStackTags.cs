using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.SqlServer.Engine;

/// <summary>The stack tags that ship for SQL Server: where sqlservr's CPU goes, by Windows module and function.</summary>
public static class SqlServerStackTags
{
    /// <summary>SQL Server tags (Windows module names, no extension).</summary>
    public static StackTagSet Set { get; } = new("sqlserver",
    [
        new("Spinlock spin/backoff", "sqldk", "Spinlock*", 90),
        new("Spinlock spin/backoff", "*", "*SpinToAcquire*", 90),
        new("Spinlock spin/backoff", "*", "*Backoff*", 90),
        new("SOS memory allocation/free", "sqldk", "SOS_MemoryWorkSpace::*", 80),
        new("SOS memory allocation/free", "sqldk", "*Page*Alloc*", 80),
        new("SOS memory allocation/free", "sqldk", "*MemoryObject*", 70),
        new("Kernel memory management", "ntoskrnl", "Mi*", 60),
        new("Kernel memory management", "ntoskrnl", "MmAccessFault", 60),
        new("Kernel memory management", "kernelbase", "MapUserPhysicalPages", 60),
        new("Kernel memory management", "kernelbase", "Virtual*", 60),
        new("bcrypt hashing", "bcrypt*", "*", 50),
        new("bcrypt hashing", "bcryptprimitives", "*", 50),
        new("Latch waits", "sqlmin", "LatchBase::*", 50),
        new("Log writes", "sqlmin", "SQLServerLogMgr::*", 50),
        new("Log writes", "sqlmin", "*XdesRMFull*", 50),
        new("Columnstore compression", "sqlmin", "CSI*", 40),
        new("Columnstore compression", "sqlmin", "*ColumnStore*", 40),
        new("Parallelism exchange", "sqlmin", "CQScanX*", 40),
        new("Parallelism exchange", "sqlmin", "*Exchange*", 40),
        new("Network (TDS)", "sqlmin", "*Tds*", 30),
        new("Network (TDS)", "sqllang", "*Tds*", 30),
        new("Network (TDS)", "ntoskrnl", "Tcp*", 30),
        new("Network (TDS)", "tcpip", "*", 30),
    ]);
}
