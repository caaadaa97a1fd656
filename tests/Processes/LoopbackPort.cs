using System.Globalization;
using System.Net;
using System.Net.Sockets;

namespace WebSerialization.Tests.Processes;

/// <summary>Free TCP ports on 127.0.0.1, for servers whose port must be known before they start.</summary>
public static class LoopbackPort
{
    /// <summary>A port that was free a moment ago: the system's pick for a listener on port 0, closed again.</summary>
    public static int Free()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }

    /// <summary>http://127.0.0.1 at a port from <see cref="Free"/>: the base address for a server about to start.</summary>
    public static Uri FreeAddress() => new($"http://127.0.0.1:{Free().ToString(CultureInfo.InvariantCulture)}");
}
