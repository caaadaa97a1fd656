using System.Globalization;
using System.Net;
using System.Net.Sockets;
using Microsoft.AspNetCore.HttpOverrides;
using Microsoft.Extensions.Options;

namespace WebSerialization.Api.Limits;

/// <summary>
/// Who a request comes from, for the heavy-request shares: its remote address, which
/// <see cref="UseTrustedForwardedHeaders"/> replaces with the forwarded one only behind a configured proxy.
/// </summary>
public static class ClientPartition
{
    /// <summary>
    /// The client's partition key: an IPv4 address (IPv4-mapped IPv6 included), or an IPv6 address's /64, the block
    /// one subscriber is normally given, so that one host cannot take a share per address of its own prefix.
    /// </summary>
    public static string Of(HttpContext httpContext)
    {
        ArgumentNullException.ThrowIfNull(httpContext);
        var address = httpContext.Connection.RemoteIpAddress;
        if (address is null)
        {
            return "unknown";
        }

        if (address.IsIPv4MappedToIPv6)
        {
            address = address.MapToIPv4();
        }

        if (address.AddressFamily != AddressFamily.InterNetworkV6 || IPAddress.IsLoopback(address))
        {
            return address.ToString();
        }

        Span<byte> bytes = stackalloc byte[16];
        address.TryWriteBytes(bytes, out _);
        bytes[8..].Clear();
        return string.Create(CultureInfo.InvariantCulture, $"{new IPAddress(bytes)}/64");
    }

    /// <summary>
    /// Takes the client's address from <c>X-Forwarded-For</c> when the request comes from one of
    /// <see cref="HeavyRequestOptions.TrustedProxies"/>, with ASP.NET Core's forwarded-headers middleware; does nothing
    /// when none is configured, since any client can write the header.
    /// </summary>
    public static WebApplication UseTrustedForwardedHeaders(this WebApplication app)
    {
        ArgumentNullException.ThrowIfNull(app);
        var proxies = app.Services.GetRequiredService<IOptions<HeavyRequestOptions>>().Value.TrustedProxies;
        if (proxies.Length == 0)
        {
            return app;
        }

        var options = new ForwardedHeadersOptions { ForwardedHeaders = ForwardedHeaders.XForwardedFor };
        options.KnownIPNetworks.Clear();
        options.KnownProxies.Clear();
        foreach (var proxy in proxies)
        {
            options.KnownProxies.Add(IPAddress.Parse(proxy));
        }

        app.UseForwardedHeaders(options);
        return app;
    }
}
