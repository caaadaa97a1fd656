using System.Globalization;
using WebSerialization.Models;

namespace WebSerialization.Load.Scenarios;

/// <summary>
/// The bodies the client uploads: each downloaded once from the server in its format and held by the client (the
/// server holds no payload). The data is deterministic, so a payload fetched from one server process is what any other
/// would send. Only one member count's payloads are kept at a time; scenarios run count by count.
/// </summary>
public sealed class PayloadCache(TimeSpan timeout)
{
    private readonly Dictionary<(WireFormat Format, int MemberCount), byte[]> _payloads = [];

    /// <summary>The scenario's payload; empty for a download. Throws <see cref="HttpRequestException"/> when the server would not give it.</summary>
    public async Task<byte[]> GetAsync(HttpClient client, LoadScenario scenario, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(client);
        ArgumentNullException.ThrowIfNull(scenario);
        using var download = scenario.CreatePayloadDownload();
        if (download is null)
        {
            return [];
        }

        var key = (scenario.PayloadFormat!, scenario.MemberCount);
        if (_payloads.TryGetValue(key, out var payload))
        {
            return payload;
        }

        foreach (var stale in _payloads.Keys.Where(other => other.MemberCount != scenario.MemberCount).ToArray())
        {
            _payloads.Remove(stale);
        }

        using var timeoutSource = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeoutSource.CancelAfter(timeout);
        using var response = await client.SendAsync(download, HttpCompletionOption.ResponseHeadersRead, timeoutSource.Token);
        if (!response.IsSuccessStatusCode)
        {
            throw new HttpRequestException(
                $"the payload download {download.RequestUri} answered {((int)response.StatusCode).ToString(CultureInfo.InvariantCulture)} {response.ReasonPhrase}",
                null,
                response.StatusCode);
        }

        payload = await response.Content.ReadAsByteArrayAsync(timeoutSource.Token);
        if (payload.Length == 0)
        {
            throw new HttpRequestException($"the payload download {download.RequestUri} returned an empty body");
        }

        Console.WriteLine($"  Holding the {scenario.PayloadFormat!.Key} payload of {scenario.MemberCount:N0} members: {payload.Length / Units.BytesPerMegabyte:N2} MB.");
        _payloads[key] = payload;
        return payload;
    }
}
