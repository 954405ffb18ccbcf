namespace SqlWaitProbe.SqlServer.Connection;

/// <summary>How to reach the server, from the capture options. The password never comes from the command line.</summary>
public sealed record SqlServerConnectionSettings
{
    /// <summary>The default database for workload tables.</summary>
    public const string DefaultDatabase = "SqlWaitProbe";

    /// <summary><c>--server</c>: a server name (<c>host</c>, <c>host,port</c>, <c>host\instance</c>) or a full SqlClient connection string.</summary>
    public required string Server { get; init; }

    /// <summary><c>--user</c>: SQL login; null means integrated authentication (unless the connection string names a user).</summary>
    public string? User { get; init; }

    /// <summary>The password, resolved from <c>--password-env</c> or a prompt; never logged.</summary>
    public string? Password { get; init; }

    /// <summary><c>--encrypt</c>: TLS on the connection even where the server does not require it.</summary>
    public bool Encrypt { get; init; }

    /// <summary><c>--trust-server-certificate</c>: accept a certificate no trusted authority signed (a test server's own).</summary>
    public bool TrustServerCertificate { get; init; }

    /// <summary><c>--database</c>, or null for the default (or the connection string's Initial Catalog).</summary>
    public string? Database { get; init; }

    /// <summary>The capture's run id; the Application Name is <c>SqlWaitProbe-&lt;runId&gt;</c>.</summary>
    public required string RunId { get; init; }

    /// <summary>The application name every probe connection carries.</summary>
    public string ApplicationName => "SqlWaitProbe-" + RunId;
}
