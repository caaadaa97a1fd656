using System.Net;

namespace WebSerialization.Load.Server;

/// <summary>
/// Scrapes the server's <c>/metrics</c>. A scrape is a request the server serves and allocates for, so the client
/// counts its calls and, at the start of a window, measures what one scrape allocates (two scrapes back to back).
/// </summary>
public sealed class ServerMetricsClient(HttpClient client)
{
    public const string Path = "/metrics";

    private long _calls;

    public long Calls => Interlocked.Read(ref _calls);

    /// <summary>What one scrape allocated, by the standard counter, at the last <see cref="ReadWindowStartAsync"/>.</summary>
    public long ReadCost { get; private set; }

    /// <summary>Scrapes the metrics, or returns null when the endpoint is off (404).</summary>
    public async Task<ServerMetrics?> TryReadAsync(CancellationToken cancellationToken)
    {
        Interlocked.Increment(ref _calls);
        using var response = await client.GetAsync(Path, cancellationToken);
        if (response.StatusCode == HttpStatusCode.NotFound)
        {
            return null;
        }

        response.EnsureSuccessStatusCode();
        return ServerMetrics.Parse(await response.Content.ReadAsStringAsync(cancellationToken));
    }

    public async Task<ServerMetrics> ReadAsync(CancellationToken cancellationToken) =>
        await TryReadAsync(cancellationToken)
        ?? throw new InvalidOperationException($"{Path} answered 404: the server runs without Metrics:Enabled=true.");

    /// <summary>Two scrapes back to back: the second starts a window, their difference is <see cref="ReadCost"/>.</summary>
    public async Task<ServerMetrics> ReadWindowStartAsync(CancellationToken cancellationToken)
    {
        var first = await ReadAsync(cancellationToken);
        var second = await ReadAsync(cancellationToken);
        ReadCost = Math.Max(0, second.AllocatedBytes - first.AllocatedBytes);
        return second;
    }
}
