namespace SqlWaitProbe.Cli.Infrastructure;

/// <summary>The process's real console.</summary>
public sealed class SystemConsole : IProbeConsole
{
    /// <summary>The one instance.</summary>
    public static SystemConsole Instance { get; } = new();

    private SystemConsole()
    {
    }

    /// <inheritdoc />
    public TextWriter Out => Console.Out;

    /// <inheritdoc />
    public TextWriter Error => Console.Error;

    /// <inheritdoc />
    public bool IsInputRedirected => Console.IsInputRedirected;

    /// <inheritdoc />
    public bool IsOutputRedirected => Console.IsOutputRedirected;

    /// <inheritdoc />
    public bool IsErrorRedirected => Console.IsErrorRedirected;

    /// <inheritdoc />
    public Stream OpenStandardInput() => Console.OpenStandardInput();

    /// <inheritdoc />
    public Stream OpenStandardOutput() => Console.OpenStandardOutput();

    /// <inheritdoc />
    public string? ReadLine() => Console.ReadLine();

    /// <inheritdoc />
    public ConsoleKeyInfo ReadKey(bool intercept) => Console.ReadKey(intercept);
}
