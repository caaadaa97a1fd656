using System.Net;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.DependencyInjection;
using WebSerialization.Tests.Processes;

namespace WebSerialization.BrowserTests;

// The real app on real Kestrel (127.0.0.1, ephemeral port) in the Production environment, because Swagger UI and the
// page at / must work there, response compression included. It serves 10,000 members: the page's shared link asks
// for all of them, Swagger UI for 10.
public sealed class ProductionServer : WebApplicationFactory<Program>
{
    public const int MemberCount = 10_000;

    // The gRPC endpoint (not used here) needs a port known before the host starts: a free one.
    private readonly int _grpcPort = LoopbackPort.Free();

    public ProductionServer()
    {
        UseKestrel(options => options.Listen(IPAddress.Loopback, 0));
        StartServer();
        var addresses = Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses;
        BaseAddress = addresses.Select(address => new Uri(address)).Single(address => address.Port != _grpcPort);
    }

    public Uri BaseAddress { get; }

    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        builder.UseEnvironment("Production");
        builder.UseSetting("Organization:MemberCount", MemberCount.ToString(System.Globalization.CultureInfo.InvariantCulture));
        builder.UseSetting("Grpc:Port", _grpcPort.ToString(System.Globalization.CultureInfo.InvariantCulture));
    }
}
