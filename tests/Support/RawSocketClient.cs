using System.Net;
using System.Net.Sockets;
using System.Text;

namespace WebSerialization.Tests.Support;

/// <summary>A client that misbehaves on purpose, at the socket level, where HttpClient would not.</summary>
public static class RawSocketClient
{
    /// <summary>
    /// Sends <paramref name="requestHead"/> (request line and headers, without the blank line), reads
    /// <paramref name="bytesToRead"/> bytes of the answer, waits <paramref name="pause"/>, then resets the connection:
    /// a reset, not a polite FIN, the way a killed client or a dropped network looks to the server.
    /// </summary>
    public static async Task ReadThenResetAsync(int port, string requestHead, int bytesToRead, TimeSpan pause = default)
    {
        using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await socket.ConnectAsync(IPAddress.Loopback, port);
        await socket.SendAsync(Encoding.ASCII.GetBytes(requestHead + "\r\n\r\n"));

        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        var buffer = new byte[bytesToRead];
        var received = 0;
        while (received < buffer.Length)
        {
            var read = await socket.ReceiveAsync(buffer.AsMemory(received), SocketFlags.None, timeout.Token);
            Assert.NotEqual(0, read);
            received += read;
        }

        await Task.Delay(pause);
        socket.LingerState = new LingerOption(enable: true, seconds: 0);
    }

    /// <summary>Reads a response head one byte at a time, so that nothing after it is consumed.</summary>
    public static async Task<string> ReadHeadAsync(Socket socket, TimeSpan timeout)
    {
        ArgumentNullException.ThrowIfNull(socket);
        using var cancellation = new CancellationTokenSource(timeout);
        var head = new StringBuilder();
        var buffer = new byte[1];
        while (!head.ToString().EndsWith("\r\n\r\n", StringComparison.Ordinal))
        {
            if (await socket.ReceiveAsync(buffer, SocketFlags.None, cancellation.Token) == 0)
            {
                throw new IOException($"The connection closed after '{head}'.");
            }

            head.Append((char)buffer[0]);
        }

        return head.ToString();
    }

    /// <summary>
    /// Starts a POST of <paramref name="payload"/> to <paramref name="path"/> that sends half its body and stops, so that
    /// it holds a heavy-request permit until the returned socket is reset. It waits for the 100 Continue it asks for,
    /// which Kestrel sends when the endpoint first reads the body, so the permit is held when this returns.
    /// </summary>
    public static async Task<Socket> SendHalfAnUploadAsync(int port, string path, string contentType, byte[] payload)
    {
        ArgumentNullException.ThrowIfNull(payload);
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        try
        {
            await socket.ConnectAsync(IPAddress.Loopback, port);
            var head = $"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {contentType}\r\n" +
                $"Content-Length: {payload.Length}\r\nExpect: 100-continue\r\n\r\n";
            await socket.SendAsync(Encoding.ASCII.GetBytes(head));
            var answer = await ReadHeadAsync(socket, TimeSpan.FromSeconds(30));
            Assert.StartsWith("HTTP/1.1 100 ", answer, StringComparison.Ordinal);
            await socket.SendAsync(payload.AsMemory(0, payload.Length / 2));
            return socket;
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Sends <paramref name="requestHead"/> (request line and headers, without the blank line) and
    /// <paramref name="body"/> while reading the answer; after <paramref name="pauseBeforeTail"/> sends
    /// <paramref name="tail"/>, then reads until the server closes the connection.
    /// </summary>
    /// <returns>Every byte of the answer, and how many of them had arrived before the tail was sent.</returns>
    public static async Task<(byte[] Answer, long BytesBeforeTail)> SendAndReadUntilClosedAsync(int port, string requestHead, byte[] body, byte[] tail, TimeSpan pauseBeforeTail)
    {
        ArgumentNullException.ThrowIfNull(body);
        using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await socket.ConnectAsync(IPAddress.Loopback, port);
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        using var answer = new MemoryStream();
        long bytesBeforeTail = -1;
        var sending = Task.Run(async () =>
        {
            await socket.SendAsync(Encoding.ASCII.GetBytes(requestHead + "\r\n\r\n"), SocketFlags.None, timeout.Token);
            await socket.SendAsync(body, SocketFlags.None, timeout.Token);
            await Task.Delay(pauseBeforeTail, timeout.Token);
            lock (answer)
            {
                bytesBeforeTail = answer.Length;
            }

            await socket.SendAsync(tail, SocketFlags.None, timeout.Token);
        });

        var buffer = new byte[64 * 1024];
        for (int read; (read = await socket.ReceiveAsync(buffer, SocketFlags.None, timeout.Token)) > 0;)
        {
            lock (answer)
            {
                answer.Write(buffer, 0, read);
            }
        }

        await sending;
        return (answer.ToArray(), bytesBeforeTail);
    }
}
