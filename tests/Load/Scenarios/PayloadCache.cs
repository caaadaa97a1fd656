namespace WebSerialization.Load.Scenarios;

/// <summary>
/// The bodies the client uploads: each downloaded once from the server in its format and held by the client (the
/// server holds no payload). The data is deterministic, so a payload fetched from one server process is what any other
/// would send. Only one member count's payloads are kept at a time; scenarios run count by count.
/// </summary>
public sealed class PayloadCache(TimeSpan timeout)
{
    private readonly Dictionary<(WireFormat Format, int MemberCount), byte[]> _payloads = [];

    /// <summary>The organization of <paramref name="memberCount"/> members in <paramref name="format"/>. Throws <see cref="HttpRequestException"/> when the server would not give it.</summary>
    public async Task<byte[]> GetAsync(HttpClient client, WireFormat format, int memberCount, CancellationToken cancellationToken)
    {
        using var download = Download(format, memberCount);
        var key = (format, memberCount);
        if (_payloads.TryGetValue(key, out var payload))
        {
            return payload;
        }

        foreach (var stale in _payloads.Keys.Where(other => other.MemberCount != memberCount).ToArray())
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

        Console.WriteLine($"  Holding the {format.Key} payload of {memberCount:N0} members: {payload.Length / Units.BytesPerMegabyte:N2} MB.");
        _payloads[key] = payload;
        return payload;
    }

    public static HttpRequestMessage Download(WireFormat format, int memberCount) =>
        new HttpRequestMessage(HttpMethod.Get, string.Create(CultureInfo.InvariantCulture, $"{HttpScenarios.OrganizationPath}?format={format.Key}&count={memberCount}"));
}
