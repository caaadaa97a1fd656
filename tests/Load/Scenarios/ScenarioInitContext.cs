using System.Net;

namespace WebSerialization.Load.Scenarios;

/// <summary>
/// What a scenario's init sees (NBomber's <c>IScenarioInitContext</c>): the shared connections, the payloads the client
/// holds, and a way to skip the scenario when the server does not have its endpoint. An init that throws
/// <see cref="HttpRequestException"/> makes the scenario "could not run".
/// </summary>
public sealed class ScenarioInitContext(ScenarioClients clients, PayloadCache payloads, TimeSpan requestTimeout, CancellationToken cancellationToken)
{
    public HttpClient Http => clients.Http;

    public PayloadCache Payloads => payloads;

    public CancellationToken CancellationToken => cancellationToken;

    /// <summary>Why the scenario is skipped; null while it is not.</summary>
    public string? SkipReason { get; private set; }

    public void Skip(string reason) => SkipReason = reason;

    /// <summary>
    /// Sends <paramref name="probe"/>, a cheap request to the scenario's endpoint, and skips the scenario when the answer
    /// is 404 or 405: the endpoint is not on this server (yet). Returns true when it is there.
    /// </summary>
    public async Task<bool> ProbeAsync(HttpRequestMessage probe)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(requestTimeout);
        using var response = await clients.Http.SendAsync(probe, HttpCompletionOption.ResponseHeadersRead, timeout.Token);
        if (response.StatusCode is HttpStatusCode.NotFound or HttpStatusCode.MethodNotAllowed)
        {
            Skip($"{probe.Method} {probe.RequestUri} answered {(int)response.StatusCode} {response.ReasonPhrase}: the endpoint is not on this server (yet).");
            return false;
        }

        return true;
    }
}
