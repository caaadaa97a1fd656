using System.Net;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.DependencyInjection;

namespace WebSerialization.IntegrationTests;

/// <summary>
/// A second real app on real Kestrel with <c>Diagnostics:RuntimeEndpoint</c> switched on, as the load runner starts it.
/// It serves 1,000 members rather than the seed's million: what it tests is the counters, not the payload.
/// </summary>
public sealed class RuntimeCountersServer : WebApplicationFactory<Program>
{
    public const int MemberCount = 1_000;

    public RuntimeCountersServer()
    {
        UseKestrel(options => options.Listen(IPAddress.Loopback, 0));
        StartServer();
        var addresses = Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses;
        Client = new HttpClient { BaseAddress = new Uri(addresses.Single()), Timeout = TimeSpan.FromMinutes(1) };
    }

    /// <summary>A plain HttpClient pointed at the server.</summary>
    public HttpClient Client { get; }

    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        builder.UseEnvironment("Testing");
        builder.UseSetting("Diagnostics:RuntimeEndpoint", "true");
        builder.UseSetting("Organization:MemberCount", MemberCount.ToString(System.Globalization.CultureInfo.InvariantCulture));
    }

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            Client.Dispose();
        }

        base.Dispose(disposing);
    }
}
