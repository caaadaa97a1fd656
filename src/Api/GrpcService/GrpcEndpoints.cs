using System.Net;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace WebSerialization.Api.GrpcService;

/// <summary>
/// Kestrel's endpoints when gRPC is on: the HTTP API where the hosting URLs say (<c>ASPNETCORE_URLS</c>,
/// <c>--urls</c>, <c>ASPNETCORE_HTTP_PORTS</c>), unchanged, and an HTTP/2-only (h2c) endpoint on
/// <see cref="GrpcOptions.Port"/> on the same hosts; HTTP/1.1 clients cannot share a cleartext HTTP/2 port.
/// </summary>
/// <remarks>
/// Kestrel binds either the endpoints that code declares or the hosting URLs, never both: once the gRPC endpoint is
/// declared here the URLs would be ignored, so each of them is declared here too. When there are none (a test host
/// that declares its own endpoint), gRPC listens on the loopback address.
/// </remarks>
internal static class GrpcEndpoints
{
    /// <summary>
    /// Empties the server's address list, which the web host fills from the same URLs just before it builds the
    /// pipeline: they are declared as endpoints already, and Kestrel would warn on every start that it overrides them.
    /// Kestrel lists the addresses it binds there once it has bound them.
    /// </summary>
    internal sealed class HostingUrlsDeclared(IServer server) : IStartupFilter
    {
        public Action<IApplicationBuilder> Configure(Action<IApplicationBuilder> next)
        {
            if (server.Features.Get<IServerAddressesFeature>() is { Addresses.IsReadOnly: false } feature)
            {
                feature.Addresses.Clear();
            }

            return next;
        }
    }

    public static void Configure(KestrelServerOptions kestrel, IConfiguration configuration, int grpcPort)
    {
        var hosts = new List<string>();
        foreach (var url in HostingUrls(configuration))
        {
            var address = BindingAddress.Parse(url);
            if (!string.Equals(address.Scheme, "http", StringComparison.OrdinalIgnoreCase))
            {
                throw new NotSupportedException($"'{url}': with gRPC on, the API's URLs must be http:// (TLS is not configured here).");
            }

            Listen(kestrel, address.Host, address.Port, protocols: null);
            if (!hosts.Contains(address.Host, StringComparer.OrdinalIgnoreCase))
            {
                hosts.Add(address.Host);
            }
        }

        if (hosts.Count == 0)
        {
            kestrel.Listen(IPAddress.Loopback, grpcPort, listen => listen.Protocols = HttpProtocols.Http2);
            return;
        }

        foreach (var host in hosts)
        {
            Listen(kestrel, host, grpcPort, HttpProtocols.Http2);
        }
    }

    // The same sources, in the same order, as the web host's own: --urls or ASPNETCORE_URLS, else the ports variables.
    private static IEnumerable<string> HostingUrls(IConfiguration configuration)
    {
        var urls = configuration[WebHostDefaults.ServerUrlsKey];
        if (!string.IsNullOrWhiteSpace(urls))
        {
            return urls.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        }

        var ports = configuration[WebHostDefaults.HttpPortsKey];
        return string.IsNullOrWhiteSpace(ports)
            ? []
            : ports.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).Select(port => $"http://*:{port}");
    }

    // Null protocols keep Kestrel's defaults (on cleartext, HTTP/1.1), as the URLs would have had them.
    private static void Listen(KestrelServerOptions kestrel, string host, int port, HttpProtocols? protocols)
    {
        void Configure(ListenOptions listen)
        {
            if (protocols is { } only)
            {
                listen.Protocols = only;
            }
        }

        if (string.Equals(host, "localhost", StringComparison.OrdinalIgnoreCase))
        {
            kestrel.ListenLocalhost(port, Configure);
        }
        else if (IPAddress.TryParse(host.Trim('[', ']'), out var ip))
        {
            kestrel.Listen(ip, port, Configure);
        }
        else
        {
            // "*", "+" or a host name: every interface, as Kestrel itself binds them.
            kestrel.ListenAnyIP(port, Configure);
        }
    }
}
