using System.Net;
using System.Net.Sockets;
using System.Text;

namespace SqlWaitProbe.Windows.Tests;

/// <summary>
/// A stand-in for a symbol server (no symbol server is reachable from the machines this project is built on), on this
/// machine's loopback, in one of three behaviours: it never answers (accepts the connection and reads the request, then
/// says nothing), it refuses at once (its port is closed), or it answers every request 404, as a server without the PDB
/// does. It counts connections and records each request line.
/// </summary>
internal sealed class StandInSymbolServer : IDisposable
{
    private readonly TcpListener? _listener;
    private readonly CancellationTokenSource _stop = new();
    private readonly List<TcpClient> _held = [];
    private readonly List<string> _requests = [];
    private readonly bool _answers;
    private int _connections;

    private StandInSymbolServer(Behaviour behaviour)
    {
        var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        Port = ((IPEndPoint)listener.LocalEndpoint).Port;
        if (behaviour == Behaviour.RefusesAtOnce)
        {
            // Closed again at once: a connection to the port is reset by this machine's TCP stack.
            listener.Stop();
            return;
        }

        _listener = listener;
        _answers = behaviour == Behaviour.AnswersNotFound;
        _ = Task.Run(AcceptAsync);
    }

    public enum Behaviour
    {
        NeverAnswers,
        RefusesAtOnce,
        AnswersNotFound,
    }

    public int Port { get; }

    /// <summary>The server's address, with <paramref name="userInfo"/> (<c>user:password</c>) when given.</summary>
    public string Url(string? userInfo = null) => $"http://{(userInfo is null ? "" : userInfo + "@")}127.0.0.1:{Port}/";

    public int Connections => Volatile.Read(ref _connections);

    public IReadOnlyList<string> Requests
    {
        get
        {
            lock (_requests)
            {
                return _requests.ToArray();
            }
        }
    }

    public static StandInSymbolServer Start(Behaviour behaviour) => new(behaviour);

    public void Dispose()
    {
        _stop.Cancel();
        _listener?.Stop();
        lock (_held)
        {
            foreach (var client in _held)
            {
                client.Dispose();
            }
        }

        _stop.Dispose();
    }

    private async Task AcceptAsync()
    {
        while (!_stop.IsCancellationRequested)
        {
            TcpClient client;
            try
            {
                client = await _listener!.AcceptTcpClientAsync(_stop.Token);
            }
            catch (Exception e) when (e is OperationCanceledException or ObjectDisposedException or SocketException)
            {
                return;
            }

            Interlocked.Increment(ref _connections);
            _ = Task.Run(() => ServeAsync(client));
        }
    }

    private async Task ServeAsync(TcpClient client)
    {
        try
        {
            var stream = client.GetStream();
            while (await ReadRequestLineAsync(stream) is { } line)
            {
                lock (_requests)
                {
                    _requests.Add(line);
                }

                if (!_answers)
                {
                    // Never answers: the connection stays open, silent, until the stand-in is disposed.
                    lock (_held)
                    {
                        _held.Add(client);
                    }

                    return;
                }

                var answer = Encoding.ASCII.GetBytes("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
                await stream.WriteAsync(answer, _stop.Token);
            }

            client.Dispose();
        }
        catch (Exception e) when (e is IOException or ObjectDisposedException or OperationCanceledException or SocketException)
        {
            client.Dispose();
        }
    }

    // The request line of the next request on the connection (its headers read and dropped), or null at its end.
    private async Task<string?> ReadRequestLineAsync(NetworkStream stream)
    {
        var head = new StringBuilder();
        var buffer = new byte[1];
        while (!head.ToString().EndsWith("\r\n\r\n", StringComparison.Ordinal))
        {
            if (await stream.ReadAsync(buffer, _stop.Token) == 0)
            {
                return null;
            }

            head.Append((char)buffer[0]);
        }

        return head.ToString().Split("\r\n")[0];
    }
}
