using SqlWaitProbe.Core.Stacks;

namespace SqlWaitProbe.Postgres.Engine;

/// <summary>The stack tags that ship for PostgreSQL on Linux: OpenSSL, glibc, the kernel and the executor.</summary>
public static class PostgresStackTags
{
    private const string Kernel = "[kernel.kallsyms]";

    /// <summary>PostgreSQL and OpenSSL tags (Linux module base names).</summary>
    public static StackTagSet Set { get; } = new("postgres",
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
}
