using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using WebSerialization.Models.Diagnostics;

namespace WebSerialization.Load.Server;

/// <summary>
/// Reads the server's runtime counters. Every call is itself a request the server serves and allocates for, so the
/// client counts its calls: the scenario subtracts them from the server's totals.
/// </summary>
public sealed class RuntimeCountersClient(HttpClient client)
{
    private static readonly JsonSerializerOptions Web = new(JsonSerializerDefaults.Web);
    private long _calls;

    /// <summary>Calls made so far.</summary>
    public long Calls => Interlocked.Read(ref _calls);

    /// <summary>Reads the counters, or returns null when the endpoint is off (404).</summary>
    public async Task<RuntimeCounters?> TryReadAsync(CancellationToken cancellationToken)
    {
        Interlocked.Increment(ref _calls);
        using var response = await client.GetAsync(RuntimeCounters.Path, cancellationToken);
        if (response.StatusCode == HttpStatusCode.NotFound)
        {
            return null;
        }

        response.EnsureSuccessStatusCode();
        return await response.Content.ReadFromJsonAsync<RuntimeCounters>(Web, cancellationToken)
            ?? throw new InvalidOperationException($"{RuntimeCounters.Path} returned an empty body.");
    }

    /// <summary>Reads the counters of a server known to have them on.</summary>
    public async Task<RuntimeCounters> ReadAsync(CancellationToken cancellationToken) =>
        await TryReadAsync(cancellationToken)
        ?? throw new InvalidOperationException($"{RuntimeCounters.Path} answered 404: the server runs without Diagnostics:RuntimeEndpoint=true.");
}
