using System.Diagnostics.Metrics;

namespace WebSerialization.Api.Diagnostics;

/// <summary>
/// Our one meter: the response body bytes handed to the server, per format (the key, such as <c>json</c>, or the
/// media type of any other body), counted by <see cref="RequestLogMiddleware"/> outside response compression, so
/// they are the bytes sent. ASP.NET Core's own meters count requests and durations, not body bytes.
/// </summary>
public sealed class ResponseBodyMetrics : IDisposable
{
    /// <summary>The meter's name, for <c>AddMeter</c>.</summary>
    public const string MeterName = "WebSerialization.Api";

    /// <summary>The counter's name; Prometheus shows it as <c>webserialization_response_body_written_bytes_total</c>.</summary>
    public const string CounterName = "webserialization.response.body.written";

    private readonly Meter _meter;
    private readonly Counter<long> _written;

    /// <summary>Creates the meter through the host's factory, so the host's listeners see it.</summary>
    public ResponseBodyMetrics(IMeterFactory meterFactory)
    {
        ArgumentNullException.ThrowIfNull(meterFactory);
        _meter = meterFactory.Create(MeterName);
        _written = _meter.CreateCounter<long>(CounterName, unit: "By", description: "Response body bytes sent, by format.");
    }

    /// <summary>Adds one response's body bytes.</summary>
    public void Record(string format, long bytes) =>
        _written.Add(bytes, new KeyValuePair<string, object?>("format", format));

    /// <inheritdoc />
    public void Dispose() => _meter.Dispose();
}
