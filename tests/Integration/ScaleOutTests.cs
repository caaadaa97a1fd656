using System.Collections.Concurrent;
using System.Reflection;
using System.Text.RegularExpressions;
using WebSerialization.IntegrationTests.ScaleOut;
using WebSerialization.Tests.Processes;
using Xunit.Abstractions;

namespace WebSerialization.IntegrationTests;

// Three replicas behind HAProxy with Prometheus scraping them (ScaleOutTopology): bodies pass through unchanged and
// streamed, Prometheus counts what the replicas served, and a rolling restart under load loses no request. What HAProxy
// adds to a download's time is the load runner's to measure (docs/results/scale-out.md).
[Trait("Category", "ScaleOut")]
public sealed class ScaleOutTests(ScaleOutTopology topology, ITestOutputHelper output) : IClassFixture<ScaleOutTopology>
{
    private const string OrganizationRoute = "/api/organization";

    private const string Query = "sum(http_server_request_duration_seconds_count{http_route=\"/api/organization\"})";

    [Fact]
    public async Task BodiesThroughHAProxyAreTheReplicasBytes()
    {
        using var replica = new HttpClient { BaseAddress = topology.ReplicaAddresses[0], Timeout = TimeSpan.FromMinutes(2) };
        foreach (var format in WireFormat.All)
        {
            var path = $"{OrganizationRoute}?format={format.Key}&count=10000";
            Assert.Equal(await replica.GetByteArrayAsync(path), await topology.Client.GetByteArrayAsync(path));
        }

        Assert.Equal(await HashAsync(replica, $"{OrganizationRoute}?format=json"), await HashAsync(topology.Client, $"{OrganizationRoute}?format=json"));
    }

    [Fact]
    public async Task HAProxyStreamsFourMillionMemberDownloadsInLittleMemory()
    {
        var before = topology.HAProxy.ResidentBytes();
        var peak = before;
        using var done = new CancellationTokenSource();
        var sampler = Task.Run(async () =>
        {
            while (!done.IsCancellationRequested)
            {
                peak = Math.Max(peak, topology.HAProxy.ResidentBytes());
                await Task.Delay(20);
            }
        });

        // A reader slower than the replicas makes HAProxy hold what it has not passed on, if it buffers.
        var downloads = Enumerable.Range(0, 4).Select(_ => DownloadAsync(topology.Client, $"{OrganizationRoute}?format=json", slowly: true));
        var sizes = (await Task.WhenAll(downloads)).Select(download => download.Length);
        await done.CancelAsync();
        await sampler;

        Assert.All(sizes, size => Assert.True(size > 150_000_000, $"A download ended after {size} bytes."));
        var rise = (peak - before) / (1024.0 * 1024.0);
        output.WriteLine($"HAProxy's resident memory rose by {rise:0.0} MB during four 1M JSON downloads.");
        Assert.True(rise <= 32, $"HAProxy's resident memory rose by {rise:0.0} MB.");
    }

    [Fact]
    public async Task PrometheusCountsEveryRequestTheReplicasServedThroughHAProxy()
    {
        var before = await CountedAsync(Query);
        const int Requests = 60;
        for (var i = 0; i < Requests; i++)
        {
            using var response = await topology.Client.GetAsync($"{OrganizationRoute}?format={WireFormat.All[i % WireFormat.All.Count].Key}&count=100");
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        }

        Assert.Equal(before + Requests, await CountedAsync(Query));
    }

    [Fact]
    public async Task ARollingRestartUnderLoadLosesNoRequest()
    {
        var failures = new ConcurrentQueue<string>();
        var completed = 0;
        using var stop = new CancellationTokenSource();

        // Open-model small downloads in every format, one every 50 ms, and two million-member downloads always in flight.
        var small = Task.Run(async () =>
        {
            var pending = new List<Task>();
            for (var i = 0; !stop.IsCancellationRequested; i++)
            {
                var format = WireFormat.All[i % WireFormat.All.Count];
                pending.Add(Download(topology.Client, $"{OrganizationRoute}?format={format.Key}&count=10000"));
                await Task.Delay(50);
            }

            await Task.WhenAll(pending);
        });
        var large = Enumerable.Range(0, 2).Select(_ => Task.Run(async () =>
        {
            while (!stop.IsCancellationRequested)
            {
                await Download(topology.Client, $"{OrganizationRoute}?format=binary");
            }
        })).ToArray();

        for (var i = 0; i < ScaleOutTopology.ReplicaCount; i++)
        {
            await Task.Delay(TimeSpan.FromSeconds(2));
            var replica = topology.Replicas[i];
            var stopping = Stopwatch.StartNew();
            await replica.TerminateAsync();

            // While it drains, the replica tells health checks it is going and still serves what reaches it.
            using (var direct = new HttpClient { BaseAddress = topology.ReplicaAddresses[i] })
            {
                var signalled = Stopwatch.StartNew();
                while (await StatusAsync(direct, "/healthz") == HttpStatusCode.OK)
                {
                    Assert.True(signalled.Elapsed < TimeSpan.FromSeconds(1), $"{replica.Name} still answered /healthz with 200 a second after SIGTERM.");
                    await Task.Delay(20);
                }

                Assert.Equal(HttpStatusCode.ServiceUnavailable, await StatusAsync(direct, "/healthz"));
                Assert.Equal(HttpStatusCode.OK, await StatusAsync(direct, $"{OrganizationRoute}?count=10"));
            }

            Assert.True(await replica.WaitForExitAsync(TimeSpan.FromSeconds(15)), $"{replica.Name} did not exit within 15 s of SIGTERM.\n{replica.Transcript()}");
            output.WriteLine($"{replica.Name} exited {stopping.Elapsed.TotalSeconds:0.0} s after SIGTERM with code {replica.ExitCode}.");
            Assert.Equal(0, replica.ExitCode);
            Assert.Contains(replica.Output, line => line.Contains("before the listener closes", StringComparison.Ordinal));
            var errors = ApiLogLines.Errors(replica.Output);
            Assert.True(errors.Count == 0, $"{replica.Name} logged errors while it drained:\n" + string.Join('\n', errors.Take(5)));
            await topology.StartReplicaAsync(i);

            // HAProxy takes it back after two good checks a second apart.
            await Task.Delay(TimeSpan.FromSeconds(3));
        }

        await stop.CancelAsync();
        await Task.WhenAll(large.Append(small));

        output.WriteLine($"{completed} requests completed, {failures.Count} failed.");
        Assert.True(failures.IsEmpty, string.Join('\n', failures.Take(20)));
        Assert.True(completed > 100, $"Only {completed} requests completed.");

        async Task Download(HttpClient client, string path)
        {
            try
            {
                var (status, bytes) = await DownloadAsync(client, path);
                if (status != HttpStatusCode.OK || bytes == 0)
                {
                    failures.Enqueue($"{path}: {(int)status} after {bytes} bytes");
                    return;
                }

                Interlocked.Increment(ref completed);
            }
            catch (Exception exception) when (exception is HttpRequestException or IOException)
            {
                failures.Enqueue($"{path}: {exception.GetType().Name}: {exception.Message}");
            }
        }
    }

    [Fact]
    public async Task TwoLoadRunnersThroughHAProxyMergeIntoTheRequestsPrometheusCounted()
    {
        var before = await CountedAsync(Query);
        var folder = Directory.CreateTempSubdirectory("scaleout-runners-").FullName;
        try
        {
            // Two client processes side by side, as two client machines would run them, each writing its histogram log.
            string[] logs = [Path.Combine(folder, "runner-1.hlog"), Path.Combine(folder, "runner-2.hlog")];
            var runners = await Task.WhenAll(logs.Select((log, i) => RunLoadRunnerAsync($"load runner {i + 1}",
            [
                "--url", topology.Client.BaseAddress!.ToString(), "--scenarios", "download-json", "--count", "1000", "--rate", "20",
                "--warmup", "0", "--duration", "3", "--histogram-log", log, "--reports", Path.Combine(folder, $"reports-{i + 1}"), "--no-results", "--timeout", "1",
            ])));
            foreach (var runner in runners)
            {
                Assert.True(runner.ExitCode == 0, runner.Transcript());
            }

            var counted = runners.Select(runner => Requests(runner, RunnerLine())).ToArray();
            var merge = await RunLoadRunnerAsync("merge", ["merge", .. logs]);
            Assert.True(merge.ExitCode == 0, merge.Transcript());
            var merged = Requests(merge, MergedRow("download-json-1000-r20"));
            output.WriteLine($"Runners: {string.Join(", ", counted.Select(runner => $"{runner.Ok} ok, {runner.Failed} failed"))}; merged: {merged.Ok} ok, {merged.Failed} failed.");

            Assert.Equal((counted.Sum(runner => runner.Ok), counted.Sum(runner => runner.Failed)), merged);
            Assert.Equal(0, merged.Failed);
            Assert.True(merged.Ok >= 100, $"Two runners at 20 requests/s for 3 s made only {merged.Ok} requests.");

            // The replicas served the measured requests and, per runner, the probe that checks the endpoint first.
            var expected = before + merged.Ok + merged.Failed + runners.Length;
            Assert.Equal(expected, await CountedAsync(Query));
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    // The solution's build of the load runner (tests/Load/bin/<configuration>/<framework>) in a process of its own, as
    // one client machine runs it, until it exits (at most two minutes).
    private static async Task<ScaleOutProcess> RunLoadRunnerAsync(string name, IReadOnlyList<string> args)
    {
        var configuration = typeof(ScaleOutTests).Assembly.GetCustomAttribute<AssemblyConfigurationAttribute>()!.Configuration;
        var framework = new DirectoryInfo(AppContext.BaseDirectory).Name;
        var path = Path.Combine(RepositoryFolder.Root, "tests", "Load", "bin", configuration, framework, "WebSerialization.Load.dll");
        Assert.True(File.Exists(path), $"No load runner at {path}: build the solution ({configuration}) first.");
        var runner = ScaleOutProcess.Start(name, new ProcessStartInfo(DotnetHost.Path, [path, .. args]) { RedirectStandardOutput = true, RedirectStandardError = true });
        Assert.True(await runner.WaitForExitAsync(TimeSpan.FromMinutes(2)), $"{name} did not exit within two minutes.\n{runner.Transcript()}");
        return runner;
    }

    // A runner's line at the end of its scenario: "  120 ok, 0 failed in 3.0 s; p50 ...".
    private static Regex RunnerLine() => new(@"^\s*(?<ok>\d+) ok, (?<failed>\d+) failed in ");

    // The merged report's row (Markdown, as the merge prints it when its output is not a terminal): | tag | logs | OK | Failed | ...
    private static Regex MergedRow(string tag) => new($@"^\| {Regex.Escape(tag)} \| 2 \| (?<ok>\d+) \| (?<failed>\d+) \|");

    private static (long Ok, long Failed) Requests(ScaleOutProcess process, Regex line)
    {
        var match = process.Output.Select(text => line.Match(text)).SingleOrDefault(match => match.Success);
        Assert.True(match is not null, $"No line matching {line} in the output of {process.Transcript()}");
        return (long.Parse(match.Groups["ok"].Value, CultureInfo.InvariantCulture), long.Parse(match.Groups["failed"].Value, CultureInfo.InvariantCulture));
    }

    // The query's value in a scrape of every replica that began a second after now, so it holds every request finished
    // before this call (a replica records one as its response ends, a moment after the client has read the last byte):
    // two equal readings are not enough, since both can come before Prometheus's first scrape.
    private async Task<double> CountedAsync(string query)
    {
        await topology.ScrapedSinceAsync(DateTimeOffset.UtcNow.AddSeconds(1));
        return await topology.QueryAsync(query);
    }

    private static async Task<HttpStatusCode> StatusAsync(HttpClient client, string path)
    {
        using var response = await client.GetAsync(path);
        return response.StatusCode;
    }

    private static async Task<string> HashAsync(HttpClient client, string path)
    {
        await using var body = await client.GetStreamAsync(path);
        return await HttpPayloads.Sha256Async(body);
    }

    // GETs path and reads the body to its end, pausing 20 ms after each 8 MB when slowly; the status and the body's length.
    private static async Task<(HttpStatusCode Status, long Length)> DownloadAsync(HttpClient client, string path, bool slowly = false)
    {
        using var response = await client.GetAsync(path, HttpCompletionOption.ResponseHeadersRead);
        await using var body = await response.Content.ReadAsStreamAsync();
        var buffer = new byte[256 * 1024];
        long total = 0;
        for (int read; (read = await body.ReadAsync(buffer)) > 0;)
        {
            total += read;
            if (slowly && total % (8 * 1024 * 1024) < read)
            {
                await Task.Delay(20);
            }
        }

        return (response.StatusCode, total);
    }
}
