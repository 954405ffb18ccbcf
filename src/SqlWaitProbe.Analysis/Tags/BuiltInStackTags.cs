namespace SqlWaitProbe.Analysis.Tags;

/// <summary>The stack tag sets that ship with the probe: SQL Server on Windows and PostgreSQL/OpenSSL on Linux.</summary>
public static class BuiltInStackTags
{
    private const string Kernel = "[kernel.kallsyms]";

    /// <summary>SQL Server tags (Windows module names, no extension).</summary>
    public static StackTagSet SqlServer { get; } = new("sqlserver",
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

    /// <summary>PostgreSQL and OpenSSL tags (Linux module base names).</summary>
    public static StackTagSet Postgres { get; } = new("postgres",
    [
        new("glibc rwlock/malloc", "libc.so*", "pthread_rwlock_*", 90),
        new("glibc rwlock/malloc", "libc.so*", "*malloc*", 85),
        new("glibc rwlock/malloc", "libc.so*", "cfree*", 85),
        new("glibc rwlock/malloc", "libc.so*", "free", 85),
        new("Kernel memory management", Kernel, "*page*", 70),
        new("Kernel memory management", Kernel, "*fault*", 70),
        new("Kernel memory management", Kernel, "*mmap*", 70),
        new("Kernel scheduler", Kernel, "schedule*", 65),
        new("Kernel scheduler", Kernel, "*sched*", 60),
        new("Kernel scheduler", Kernel, "finish_task_switch*", 65),
        new("OpenSSL EVP/SHA-256", "libcrypto.so*", "EVP_*", 50),
        new("OpenSSL EVP/SHA-256", "libcrypto.so*", "*sha256*", 55),
        new("OpenSSL EVP/SHA-256", "libcrypto.so*", "SHA256*", 55),
        new("OpenSSL (other)", "libcrypto.so*", "*", 40),
        new("pgcrypto", "pgcrypto.so", "*", 40),
        new("PostgreSQL executor", "postgres", "Exec*", 20),
        new("PostgreSQL executor", "postgres", "*ExecutorRun*", 20),
    ]);

    /// <summary>The set for an engine (<c>postgres</c> or <c>sqlserver</c>); both merged for anything else.</summary>
    public static StackTagSet ForEngine(string engine) => engine switch
    {
        "postgres" => Postgres,
        "sqlserver" => SqlServer,
        _ => SqlServer.Merge(Postgres),
    };
}
