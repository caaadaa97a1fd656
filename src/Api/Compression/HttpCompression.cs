using Microsoft.AspNetCore.ResponseCompression;
using Microsoft.Extensions.Options;
using WebSerialization.Api.Formats;
using WebSerialization.Models;

namespace WebSerialization.Api.Compression;

/// <summary>
/// Response compression (br, then gzip) for every format, problem details and the docs, with ASP.NET Core's
/// middleware. It wraps the body in a compression stream and compresses as the encoders flush, so a streamed
/// download stays streamed: each flush of the organization's writer pushes a compressed block to the socket.
/// </summary>
public static class HttpCompression
{
    /// <summary>Registers the compression providers and the media types they apply to.</summary>
    public static IServiceCollection AddHttpCompression(this IServiceCollection services, IConfiguration configuration)
    {
        services.Configure<HttpCompressionOptions>(configuration.GetSection(HttpCompressionOptions.Section));
        services.AddResponseCompression(options =>
        {
            // BREACH needs a secret reflected next to attacker-chosen text in one compressed body; these responses
            // carry no secrets (no cookies, tokens or user data), so compressing over HTTPS gives nothing away.
            options.EnableForHttps = true;
            options.Providers.Add<BrotliCompressionProvider>();
            options.Providers.Add<GzipCompressionProvider>();
            options.MimeTypes =
            [
                .. ResponseCompressionDefaults.MimeTypes,
                .. AcceptHeaderNegotiator.SupportedMediaTypes,
                WireMediaTypes.ProblemJson,
            ];
        });
        services.AddOptions<BrotliCompressionProviderOptions>()
            .Configure<IOptions<HttpCompressionOptions>>((brotli, settings) => brotli.Level = settings.Value.Level);
        services.AddOptions<GzipCompressionProviderOptions>()
            .Configure<IOptions<HttpCompressionOptions>>((gzip, settings) => gzip.Level = settings.Value.Level);
        return services;
    }

    /// <summary>Compresses responses, unless <c>Compression:Enabled</c> is false.</summary>
    public static WebApplication UseHttpCompression(this WebApplication app)
    {
        if (app.Services.GetRequiredService<IOptions<HttpCompressionOptions>>().Value.Enabled)
        {
            app.UseResponseCompression();
        }

        return app;
    }
}
