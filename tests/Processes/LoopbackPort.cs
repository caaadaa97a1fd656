using System.Globalization;
using System.Net;
using System.Net.Sockets;

namespace WebSerialization.Tests.Processes;

/// <summary>Free TCP ports on 127.0.0.1, for servers whose port must be known before they start.</summary>
/// <remarks>
/// A port from a listener on port 0 lies in the kernel's ephemeral range, where any process's next outgoing
/// connection may take it as its local port before the server binds it ("address already in use"). So the port is
/// drawn at random from below that range, which the kernel never hands out by itself, and checked to be free now.
/// </remarks>
public static class LoopbackPort
{
    private const string EphemeralRangeFile = "/proc/sys/net/ipv4/ip_local_port_range";
    private const int LowestPort = 20_000;

    /// <summary>A port that was free a moment ago and that no outgoing connection will be given meanwhile.</summary>
    public static int Free()
    {
        var below = EphemeralRangeStart();
        if (below > LowestPort + 1_000)
        {
            for (var attempt = 0; attempt < 100; attempt++)
            {
                var port = Random.Shared.Next(LowestPort, below);
                if (IsFree(port))
                {
                    return port;
                }
            }
        }

        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }

    /// <summary>http://127.0.0.1 at a port from <see cref="Free"/>: the base address for a server about to start.</summary>
    public static Uri FreeAddress() => new($"http://127.0.0.1:{Free().ToString(CultureInfo.InvariantCulture)}");

    // The first port of the ephemeral range on Linux; 0 where the range cannot be read (then port 0's pick is used).
    private static int EphemeralRangeStart()
    {
        try
        {
            var first = File.ReadAllText(EphemeralRangeFile).Split((char[])[' ', '\t', '\n'], StringSplitOptions.RemoveEmptyEntries)[0];
            return int.Parse(first, CultureInfo.InvariantCulture);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException or FormatException or IndexOutOfRangeException)
        {
            return 0;
        }
    }

    private static bool IsFree(int port)
    {
        try
        {
            using var listener = new TcpListener(IPAddress.Loopback, port);
            listener.Start();
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }
}
