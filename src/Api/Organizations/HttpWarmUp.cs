using System.Diagnostics;
using System.Globalization;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Options;
using WebSerialization.Models;

namespace WebSerialization.Api.Organizations;

/// <summary>
/// On one processor, once the server listens: downloads from itself over loopback, each request on a new connection,
/// rotating through the formats, with <c>/healthz</c> at 503 until it is done. On one core the tier-1 compiles of
/// Kestrel's and ASP.NET Core's per-connection and per-request code otherwise fall on the first seconds of real load,
/// in bursts that slow every request meanwhile; with more cores the compiler has one beside the requests
/// (docs/performance.md, "One core").
/// </summary>
public sealed partial class HttpWarmUp(IServer server, IOptions<OrganizationOptions> options, ILogger<HttpWarmUp> logger)
    : IHostedLifecycleService, IHealthCheck, IDisposable
{
    // Members per request: every per-chunk path of a large download runs, and a request takes milliseconds.
    private const int MembersPerRequest = 100_000;

    // Ready once no method has been compiled for this long after the requests, or at the bound.
    private static readonly TimeSpan QuietTime = TimeSpan.FromMilliseconds(500);
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(30);

    private readonly CancellationTokenSource _stopping = new();
    private volatile bool _warming;

    private int Requests => options.Value.WarmUp && Environment.ProcessorCount == 1 ? options.Value.HttpWarmUpRequests : 0;

    // Not taking load from before the server listens, so that /healthz never answers 200 ahead of the warm-up.
    public Task StartingAsync(CancellationToken cancellationToken)
    {
        _warming = Requests > 0;
        return Task.CompletedTask;
    }

    public Task StartedAsync(CancellationToken cancellationToken)
    {
        if (_warming && LoopbackAddress() is { } address)
        {
            _ = Task.Run(() => WarmUpAsync(address, Requests, _stopping.Token), CancellationToken.None);
        }
        else
        {
            _warming = false;
        }

        return Task.CompletedTask;
    }

    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default) =>
        Task.FromResult(_warming ? new HealthCheckResult(context.Registration.FailureStatus, "Warming up: downloading from itself before taking load.") : HealthCheckResult.Healthy());

    public Task StoppingAsync(CancellationToken cancellationToken)
    {
        _stopping.Cancel();
        return Task.CompletedTask;
    }

    public Task StartAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public Task StoppedAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public void Dispose() => _stopping.Dispose();

    private async Task WarmUpAsync(Uri address, int requests, CancellationToken cancellationToken)
    {
        var started = Stopwatch.GetTimestamp();
        var members = Math.Min(MembersPerRequest, options.Value.MemberCount).ToString(CultureInfo.InvariantCulture);
        try
        {
            using var client = new HttpClient(new SocketsHttpHandler { UseProxy = false }) { BaseAddress = address };
            for (var i = 0; i < requests; i++)
            {
                var format = WireFormat.All[i % WireFormat.All.Count];
                using var request = new HttpRequestMessage(HttpMethod.Get, $"/api/organization?count={members}&format={format.Key}");
                request.Headers.ConnectionClose = true;
                using var response = await client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, cancellationToken);
                response.EnsureSuccessStatusCode();
                await response.Content.CopyToAsync(Stream.Null, cancellationToken);
            }

            // The compiles the requests queued run in the background: ready once none has finished for a while.
            await JitQuiet.RepeatUntilQuietAsync(token => Task.Delay(QuietTime / 5, token), QuietTime, started, Bound, cancellationToken);
            LogWarmedUp(logger, requests, members, address, Stopwatch.GetElapsedTime(started).TotalMilliseconds);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // Stopping: the warm-up does not hold the stop up.
        }
        catch (Exception exception) when (exception is HttpRequestException or IOException)
        {
            LogWarmUpFailed(logger, address, exception);
        }
        finally
        {
            _warming = false;
        }
    }

    // The first http address, with a wildcard host (+, *, 0.0.0.0, [::]) read as 127.0.0.1.
    private Uri? LoopbackAddress()
    {
        var addresses = server.Features.Get<IServerAddressesFeature>()?.Addresses ?? [];
        var http = addresses.FirstOrDefault(address => address.StartsWith("http://", StringComparison.OrdinalIgnoreCase));
        if (http is null)
        {
            return null;
        }

        foreach (var wildcard in new[] { "+", "*", "0.0.0.0", "[::]" })
        {
            http = http.Replace($"://{wildcard}:", "://127.0.0.1:", StringComparison.Ordinal);
        }

        return Uri.TryCreate(http, UriKind.Absolute, out var uri) ? uri : null;
    }

    [LoggerMessage(Level = LogLevel.Information, Message = "Warmed up through HTTP: {Requests} downloads of {Members} members from {Address}, each on a new connection, {ElapsedMilliseconds:0} ms")]
    private static partial void LogWarmedUp(ILogger logger, int requests, string members, Uri address, double elapsedMilliseconds);

    [LoggerMessage(Level = LogLevel.Warning, Message = "The HTTP warm-up from {Address} failed; the server takes load without it")]
    private static partial void LogWarmUpFailed(ILogger logger, Uri address, Exception exception);
}
