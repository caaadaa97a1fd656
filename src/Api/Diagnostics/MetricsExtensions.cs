using OpenTelemetry.Exporter;
using OpenTelemetry.Metrics;

namespace WebSerialization.Api.Diagnostics;

/// <summary>
/// OpenTelemetry metrics on a Prometheus <c>GET /metrics</c>: ASP.NET Core's meters (<c>http.server.request.duration</c>
/// and Kestrel's), the runtime's built-in <c>System.Runtime</c> meter (<c>dotnet.gc.heap.total_allocated</c>,
/// <c>dotnet.gc.collections</c>, <c>dotnet.process.memory.working_set</c>...) and <see cref="ResponseBodyMetrics"/>.
/// Off unless <c>Metrics:Enabled</c> is true (docs/configuration.md says why): then nothing is registered, the path
/// answers 404 and requests pay nothing for it.
/// </summary>
public static class MetricsExtensions
{
    /// <summary>The configuration switch.</summary>
    public const string EnabledKey = "Metrics:Enabled";

    /// <summary>The scraping endpoint.</summary>
    public const string Path = "/metrics";

    // The runtime's own meter (.NET 9 and later); OpenTelemetry.Instrumentation.Runtime only subscribes to it there.
    private const string RuntimeMeterName = "System.Runtime";

    /// <summary>Registers the meters and the Prometheus exporter when <see cref="EnabledKey"/> is true.</summary>
    public static IServiceCollection AddMetrics(this IServiceCollection services, IConfiguration configuration)
    {
        if (!configuration.GetValue<bool>(EnabledKey))
        {
            return services;
        }

        services.AddSingleton<ResponseBodyMetrics>();
        services.AddOpenTelemetry().WithMetrics(metrics => metrics
            .AddAspNetCoreInstrumentation()
            .AddMeter(RuntimeMeterName, ResponseBodyMetrics.MeterName)
            .AddPrometheusExporter(ConfigurePrometheus));
        return services;
    }

    /// <summary>Maps <see cref="Path"/> when <see cref="EnabledKey"/> is true.</summary>
    public static WebApplication MapMetrics(this WebApplication app)
    {
        ArgumentNullException.ThrowIfNull(app);
        if (app.Configuration.GetValue<bool>(EnabledKey))
        {
            app.MapPrometheusScrapingEndpoint(Path);
        }

        return app;
    }

    // Every scrape reads the counters afresh: the exporter's default answers scrapes within 300 ms from a cache, and
    // the load runner reads them right before and right after a measured phase.
    private static void ConfigurePrometheus(PrometheusAspNetCoreOptions options) =>
        options.ScrapeResponseCacheDurationMilliseconds = 0;
}
