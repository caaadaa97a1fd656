using System.Net;
using System.Net.Sockets;
using System.Text;

namespace WebSerialization.IntegrationTests;

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
}
