using System.Globalization;
using System.Net;
using System.Net.Sockets;

namespace WebSerialization.Load.Tests;

public class LoopbackPortTests
{
    [Fact]
    public void PicksFreePortsBelowTheRangeThatOutgoingConnectionsAreGiven()
    {
        var ephemeralStart = int.Parse(
            File.ReadAllText("/proc/sys/net/ipv4/ip_local_port_range").Split((char[])[' ', '\t', '\n'], StringSplitOptions.RemoveEmptyEntries)[0],
            CultureInfo.InvariantCulture);

        for (var i = 0; i < 50; i++)
        {
            var port = LoopbackPort.Free();

            Assert.InRange(port, 1024, ephemeralStart - 1);
            using var listener = new TcpListener(IPAddress.Loopback, port);
            listener.Start();
        }
    }
}
