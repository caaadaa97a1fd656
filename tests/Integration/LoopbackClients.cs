using System.Net.Sockets;

namespace WebSerialization.IntegrationTests;

// Clients that connect from a chosen loopback source address (127.0.0.2, 127.0.0.3...), which the server sees as
// different clients: Linux routes all of 127.0.0.0/8 to the loopback interface.
public static class LoopbackClients
{
    /// <summary>An HttpClient whose connections leave from <paramref name="source"/>.</summary>
    public static HttpClient From(string source, Uri baseAddress) =>
        new(Handler(source)) { BaseAddress = baseAddress, Timeout = TimeSpan.FromMinutes(2) };

    /// <summary>A handler whose connections leave from <paramref name="source"/> (for a gRPC channel too).</summary>
    public static SocketsHttpHandler Handler(string source) => new()
    {
        ConnectCallback = async (context, cancellationToken) =>
        {
            var socket = Bound(source);
            try
            {
                await socket.ConnectAsync(context.DnsEndPoint, cancellationToken);
                return new NetworkStream(socket, ownsSocket: true);
            }
            catch
            {
                socket.Dispose();
                throw;
            }
        },
    };

    /// <summary>A socket connected from <paramref name="source"/> to the server's <paramref name="port"/>, with a receive buffer of <paramref name="receiveBufferBytes"/> if given.</summary>
    public static async Task<Socket> ConnectAsync(string source, int port, int? receiveBufferBytes = null)
    {
        var socket = Bound(source);
        if (receiveBufferBytes is { } bytes)
        {
            socket.ReceiveBufferSize = bytes;
        }

        await socket.ConnectAsync(IPAddress.Loopback, port);
        return socket;
    }

    /// <summary>Reads a response head and answers its status code (the 200 of "HTTP/1.1 200 OK").</summary>
    public static async Task<int> ReadStatusAsync(Socket socket, TimeSpan timeout) =>
        int.Parse((await RawSocketClient.ReadHeadAsync(socket, timeout)).AsSpan(9, 3), CultureInfo.InvariantCulture);

    /// <summary>Closes <paramref name="socket"/> with a reset rather than a FIN: the client is gone, mid-request.</summary>
    public static void Reset(Socket socket)
    {
        socket.LingerState = new LingerOption(enable: true, seconds: 0);
        socket.Dispose();
    }

    private static Socket Bound(string source)
    {
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        socket.Bind(new IPEndPoint(IPAddress.Parse(source), 0));
        return socket;
    }
}
