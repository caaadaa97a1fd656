using System.Diagnostics.Metrics;
using Microsoft.AspNetCore.Http.Features;

namespace WebSerialization.Api.Diagnostics;

/// <summary>
/// Our one meter: the response body bytes handed to the server, per format (the key, such as <c>json</c>, or the
/// media type of any other body), counted by <see cref="RequestLogMiddleware"/> outside response compression, so
/// they are the bytes sent: a running total and a per-response histogram. ASP.NET Core's own meters count requests
/// and durations, not body bytes; the format is added to its <c>http.server.request.duration</c> as a tag, so the
/// figures of the request log's access line (method, route, status, format, size, duration) are all on /metrics.
/// </summary>
public sealed class ResponseBodyMetrics : IDisposable
{
    /// <summary>The meter's name, for <c>AddMeter</c>.</summary>
    public const string MeterName = "WebSerialization.Api";

    /// <summary>The counter's name; Prometheus shows it as <c>webserialization_response_body_written_bytes_total</c>.</summary>
    public const string CounterName = "webserialization.response.body.written";

    private readonly Meter _meter;
    private readonly Counter<long> _written;

    /// <summary>The histogram's name, OpenTelemetry's HTTP semantic convention; Prometheus shows it as <c>http_server_response_body_size_bytes</c>.</summary>
    public const string HistogramName = "http.server.response.body.size";

    /// <summary>The tag, on both instruments and on <c>http.server.request.duration</c>.</summary>
    public const string FormatTag = "format";

    // Bucket bounds from 100 B to 1 GB by powers of ten: a problem body, a 1,000-member download, the whole organization.
    private static readonly long[] SizeBuckets = [100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000];

    private readonly Histogram<long> _sizes;

    /// <summary>Creates the meter through the host's factory, so the host's listeners see it.</summary>
    public ResponseBodyMetrics(IMeterFactory meterFactory)
    {
        ArgumentNullException.ThrowIfNull(meterFactory);
        _meter = meterFactory.Create(MeterName);
        _written = _meter.CreateCounter<long>(CounterName, unit: "By", description: "Response body bytes sent, by format.");
        _sizes = _meter.CreateHistogram(HistogramName, unit: "By", description: "Size of each response body as sent, by format.",
            advice: new InstrumentAdvice<long> { HistogramBucketBoundaries = SizeBuckets });
    }

    /// <summary>Adds one response's body bytes, and its format to the request's own duration measurement.</summary>
    public void Record(HttpContext context, string format, long bytes)
    {
        ArgumentNullException.ThrowIfNull(context);
        var tag = new KeyValuePair<string, object?>(FormatTag, format);
        _written.Add(bytes, tag);
        _sizes.Record(bytes, tag);
        // Present when ASP.NET Core's hosting meter is listened to; it records the duration after this middleware returns.
        context.Features.Get<IHttpMetricsTagsFeature>()?.Tags.Add(tag);
    }

    /// <inheritdoc />
    public void Dispose() => _meter.Dispose();
}
