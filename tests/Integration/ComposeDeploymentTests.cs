using System.Net.Http.Headers;
using WebSerialization.IntegrationTests.Docker;
using WebSerialization.Tests.Processes;
using Xunit.Abstractions;

namespace WebSerialization.IntegrationTests;

// deploy/compose.yaml started as a user starts it (up -d --no-build under a project name of its own), with the image
// the Docker tests built and stand-ins for HAProxy and Prometheus (deploy/stand-in-images): every format through
// HAProxy, requests spread over the three replicas, Prometheus scraping all three, and down leaving nothing behind.
[Trait("Category", "Docker")]
[Collection(DockerCollection.Name)]
public sealed class ComposeDeploymentTests(DockerImageFixture fixture, ITestOutputHelper output)
{
    private const int MemberCount = 10_000;

    private static readonly string[] Replicas = ["api-1:8080", "api-2:8080", "api-3:8080"];

    // Requests to the organization route by replica, as Prometheus last scraped them from the replicas' /metrics.
    private const string CountsByReplica = "sum by (instance) (http_server_request_duration_seconds_count{http_route=\"/api/organization\"})";

    [Fact]
    public async Task ServesEveryFormatFromThreeReplicasBehindHAProxyScrapedByPrometheusAndLeavesNothingAfterDown()
    {
        var apiPort = LoopbackPort.Free();
        var prometheusPort = LoopbackPort.Free();
        while (prometheusPort == apiPort)
        {
            prometheusPort = LoopbackPort.Free();
        }

        var compose = await ComposeProject.CreateAsync(new Dictionary<string, string>
        {
            ["WEBSERIALIZATION_IMAGE"] = fixture.Image,
            ["WEBSERIALIZATION_PORT"] = apiPort.ToString(CultureInfo.InvariantCulture),
            ["PROMETHEUS_PORT"] = prometheusPort.ToString(CultureInfo.InvariantCulture),
            ["WEBSERIALIZATION_SUBNET_PREFIX"] = await ComposeProject.FreeSubnetPrefixAsync(),
        });
        output.WriteLine($"{compose.Command} -p {compose.Name}: API on {apiPort}, Prometheus on {prometheusPort}.");
        var stopwatch = Stopwatch.StartNew();
        Exception? failure = null;
        try
        {
            await compose.UpAsync();
            output.WriteLine($"up returned after {stopwatch.Elapsed.TotalSeconds:0.0} s.");
            using var api = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{apiPort}"), Timeout = TimeSpan.FromMinutes(1) };
            using var prometheus = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{prometheusPort}"), Timeout = TimeSpan.FromMinutes(1) };
            await WaitUntilHAProxyAnswersAsync(api);
            output.WriteLine($"HAProxy answered /healthz 200 after {stopwatch.Elapsed.TotalSeconds:0.0} s.");
            await WaitUntilPrometheusScrapesEveryReplicaAsync(prometheus);
            output.WriteLine($"Prometheus listed {Replicas.Length} targets up after {stopwatch.Elapsed.TotalSeconds:0.0} s.");

            var before = await CountsAsync(prometheus);
            var expected = OrganizationGenerator.Create(MemberCount);
            var sent = 0;
            var spreading = Stopwatch.StartNew();
            Dictionary<string, double> counted;
            do
            {
                // A round of every format, as the README's curl lines ask for them; another round only when Prometheus has
                // counted every request so far and some replica has none: one that HAProxy has not yet seen up (two checks a
                // second apart) gets none, and every replica is up within seconds of Prometheus' first scrape of it.
                foreach (var format in WireFormat.All)
                {
                    await DownloadAsync(api, format, expected);
                    sent++;
                }

                counted = await CountedAsync(prometheus, before, sent);
            }
            while (Replicas.Any(replica => Rise(counted, before, replica) == 0) && spreading.Elapsed < TimeSpan.FromSeconds(60));

            var byReplica = string.Join(", ", Replicas.Select(replica => $"{replica} {Rise(counted, before, replica)}"));
            output.WriteLine($"{sent} requests through HAProxy, by replica: {byReplica}");
            Assert.All(Replicas, replica => Assert.True(Rise(counted, before, replica) > 0, $"{replica} served none of {sent} requests ({byReplica})."));
            var total = Replicas.Sum(replica => Rise(counted, before, replica));
            Assert.True(total == sent, $"Prometheus counted {total} requests across the replicas, {sent} were sent ({byReplica}).");
        }
        catch (Exception exception)
        {
            failure = exception;
        }

        // Neither throws when a command fails, so down always runs.
        var logs = failure is null ? "" : await compose.LogsAsync();
        var volumes = await compose.VolumesAsync();
        var down = Stopwatch.StartNew();
        var (downExitCode, downOutput) = await compose.DownAsync();
        output.WriteLine($"down took {down.Elapsed.TotalSeconds:0.0} s, {stopwatch.Elapsed.TotalSeconds:0.0} s after up began; the project had {volumes.Length} volume(s).");
        var leftovers = await compose.LeftoversAsync(volumes);
        if (failure is not null)
        {
            throw new Xunit.Sdk.XunitException(
                $"{failure.Message}\n\n{compose.Command} logs:\n{logs}\n\ndown (exit {downExitCode}):\n{downOutput}\nleft after down: {string.Join(", ", leftovers)}",
                failure);
        }

        Assert.True(downExitCode == 0, $"down exited with {downExitCode}:\n{downOutput}");
        Assert.True(leftovers.Length == 0, "Left after down: " + string.Join(", ", leftovers));
    }

    private static async Task DownloadAsync(HttpClient api, WireFormat format, Organization expected)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, $"/api/organization?count={MemberCount}");
        request.Headers.Accept.Add(new MediaTypeWithQualityHeaderValue(format.MediaType));
        using var response = await api.SendAsync(request);
        Assert.True(response.StatusCode == HttpStatusCode.OK, $"{format.Key}: {(int)response.StatusCode} through HAProxy.");
        Assert.Equal(format.MediaType, response.Content.Headers.ContentType?.MediaType);
        var body = await response.Content.ReadAsByteArrayAsync();
        var (organization, bytes) = await OrganizationAssert.DecodeAsync(new MemoryStream(body), format);
        Assert.Equal(body.Length, bytes);
        OrganizationAssert.Equal(expected, MemberCount, organization);
    }

    // HAProxy answers 503 until a replica passes its health checks, and nothing until its container listens.
    private static Task WaitUntilHAProxyAnswersAsync(HttpClient api) => PollAsync(
        async () =>
        {
            using var response = await api.GetAsync("/healthz");
            var status = (int)response.StatusCode;
            return status == 200 ? null : status.ToString(CultureInfo.InvariantCulture);
        },
        TimeSpan.FromSeconds(90),
        TimeSpan.FromMilliseconds(200),
        "HAProxy's /healthz did not answer 200 within 90 s");

    // Prometheus scrapes every 5 s (deploy/prometheus/prometheus.yml); a target is "up" once a scrape of it succeeded.
    private static Task WaitUntilPrometheusScrapesEveryReplicaAsync(HttpClient prometheus) => PollAsync(
        async () =>
        {
            using var document = JsonDocument.Parse(await prometheus.GetStringAsync("/api/v1/targets"));
            var targets = document.RootElement.GetProperty("data").GetProperty("activeTargets").EnumerateArray()
                .Select(target => (Instance: target.GetProperty("labels").GetProperty("instance").GetString()!, Health: target.GetProperty("health").GetString()!))
                .OrderBy(target => target.Instance, StringComparer.Ordinal)
                .ToArray();
            var up = targets.Select(target => target.Instance).SequenceEqual(Replicas)
                && targets.All(target => target.Health == "up");
            return up ? null : string.Join(", ", targets.Select(target => $"{target.Instance} {target.Health}"));
        },
        TimeSpan.FromSeconds(60),
        TimeSpan.FromMilliseconds(500),
        $"Prometheus did not list {string.Join(", ", Replicas)} as up within 60 s");

    // Asks check every interval until it answers null, for at most timeout; then fails with its last answer (or error).
    private static async Task PollAsync(Func<Task<string?>> check, TimeSpan timeout, TimeSpan interval, string failure)
    {
        var waited = Stopwatch.StartNew();
        var last = "no answer";
        while (waited.Elapsed < timeout)
        {
            try
            {
                if (await check() is not { } answer)
                {
                    return;
                }

                last = answer;
            }
            catch (HttpRequestException exception)
            {
                last = exception.Message;
            }

            await Task.Delay(interval);
        }

        throw new TimeoutException($"{failure} (last: {last}).");
    }

    // The counts once Prometheus has counted sent requests since before, or after 30 s (six scrapes) with what it has.
    private static async Task<Dictionary<string, double>> CountedAsync(HttpClient prometheus, Dictionary<string, double> before, int sent)
    {
        var waited = Stopwatch.StartNew();
        var counts = await CountsAsync(prometheus);
        while (Replicas.Sum(replica => Rise(counts, before, replica)) < sent && waited.Elapsed < TimeSpan.FromSeconds(30))
        {
            await Task.Delay(500);
            counts = await CountsAsync(prometheus);
        }

        return counts;
    }

    private static async Task<Dictionary<string, double>> CountsAsync(HttpClient prometheus)
    {
        using var document = JsonDocument.Parse(await prometheus.GetStringAsync("/api/v1/query?query=" + Uri.EscapeDataString(CountsByReplica)));
        return document.RootElement.GetProperty("data").GetProperty("result").EnumerateArray().ToDictionary(
            sample => sample.GetProperty("metric").GetProperty("instance").GetString()!,
            sample => double.Parse(sample.GetProperty("value")[1].GetString()!, CultureInfo.InvariantCulture));
    }

    // A replica without the series has served no request to the route since it started.
    private static double Rise(Dictionary<string, double> counts, Dictionary<string, double> before, string replica) =>
        counts.GetValueOrDefault(replica) - before.GetValueOrDefault(replica);
}
