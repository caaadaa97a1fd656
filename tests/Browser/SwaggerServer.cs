using System.Net;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.DependencyInjection;

namespace WebSerialization.BrowserTests;

/// <summary>
/// The real app on real Kestrel (127.0.0.1, ephemeral port) in the Production environment, because Swagger UI must
/// stay available there. It serves 1,000 members: the browser asks for 10.
/// </summary>
public sealed class SwaggerServer : WebApplicationFactory<Program>
{
    public SwaggerServer()
    {
        UseKestrel(options => options.Listen(IPAddress.Loopback, 0));
        StartServer();
        var addresses = Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses;
        BaseAddress = new Uri(addresses.Single());
    }

    /// <summary>Where the server listens, e.g. http://127.0.0.1:41234.</summary>
    public Uri BaseAddress { get; }

    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        builder.UseEnvironment("Production");
        builder.UseSetting("Organization:MemberCount", "1000");
    }
}
