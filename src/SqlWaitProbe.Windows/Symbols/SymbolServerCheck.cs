using System.Globalization;
using System.Net.Sockets;
using Microsoft.Diagnostics.Symbols;
using SqlWaitProbe.Core.Secrets;

namespace SqlWaitProbe.Windows.Symbols;

/// <summary>
/// One check of each HTTP symbol server before a phase's first symbol lookup. TraceEvent's reader waits up to its
/// request timeout for every PDB it asks a server that never answers, so a dead server costs that wait once per module;
/// asked once, with a short timeout, a server that does not answer is left out of the phase's lookups and only the PDBs
/// already in the local cache are read.
/// </summary>
public static class SymbolServerCheck
{
    /// <summary>How long a server has to answer the check: any HTTP answer, even 404, shows it is there.</summary>
    public static readonly TimeSpan DefaultTimeout = TimeSpan.FromSeconds(5);

    /// <summary>The HTTP(S) symbol servers of <paramref name="symbolPath"/>, in order, each once.</summary>
    public static IReadOnlyList<string> Servers(string symbolPath)
    {
        ArgumentNullException.ThrowIfNull(symbolPath);
        return new SymbolPath(symbolPath).Elements
            .Where(e => e.IsSymServer && IsHttp(e.Target))
            .Select(e => e.Target)
            .Distinct(StringComparer.OrdinalIgnoreCase)
            .ToList();
    }

    /// <summary>
    /// <paramref name="symbolPath"/> without the servers of <paramref name="unreachable"/>: each such element keeps only
    /// its cache (<c>SRV*cache</c>), so the PDBs already downloaded are still found.
    /// </summary>
    public static string Without(string symbolPath, IReadOnlyCollection<string> unreachable)
    {
        ArgumentNullException.ThrowIfNull(symbolPath);
        ArgumentNullException.ThrowIfNull(unreachable);
        var kept = new SymbolPath();
        foreach (var element in new SymbolPath(symbolPath).Elements)
        {
            if (!element.IsSymServer || !unreachable.Contains(element.Target, StringComparer.OrdinalIgnoreCase))
            {
                kept.Add(element);
            }
            else if (element.Cache is { Length: > 0 } cache)
            {
                kept.Add("SRV*" + cache);
            }
        }

        return kept.ToString().Trim(';');
    }

    /// <summary>
    /// Null when <paramref name="server"/> answers an HTTP request within <paramref name="timeout"/> (whatever its status),
    /// else one line saying what happened, with any password in the address masked.
    /// </summary>
    public static string? Problem(string server, TimeSpan timeout, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(server);
        var shown = CredentialRules.Redact(server);
        var seconds = timeout.TotalSeconds.ToString("0.#", CultureInfo.InvariantCulture);
        if (!Uri.TryCreate(server, UriKind.Absolute, out var uri))
        {
            return $"{shown} is not an address";
        }

        using var handler = new SocketsHttpHandler { ConnectTimeout = timeout, AllowAutoRedirect = false };
        using var client = new HttpClient(handler) { Timeout = Timeout.InfiniteTimeSpan };
        using var limit = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        limit.CancelAfter(timeout);
        try
        {
            using var request = new HttpRequestMessage(HttpMethod.Get, uri);
            using var response = client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, limit.Token).GetAwaiter().GetResult();
            return null;
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            return $"{shown} did not answer within {seconds} s";
        }
        catch (HttpRequestException e)
        {
            return e.InnerException is SocketException { SocketErrorCode: SocketError.ConnectionRefused }
                ? $"{shown} refused the connection"
                : $"{shown} could not be reached ({CredentialRules.Redact(e.Message)})";
        }
    }

    private static bool IsHttp(string? target) =>
        target is not null && (target.StartsWith("http://", StringComparison.OrdinalIgnoreCase) || target.StartsWith("https://", StringComparison.OrdinalIgnoreCase));
}
