using WebSerialization.Api.Organizations;
using WebSerialization.Tests.Processes;

namespace WebSerialization.IntegrationTests.ScaleOut;

// The topology of deploy/compose.yaml as processes on loopback: three replicas of the built API behind Debian's
// HAProxy (HAProxyTopology, which the load runner's --through-haproxy starts too) and Prometheus started with the
// configuration files in deploy/. Only the addresses differ: HAProxy reads them from its environment, Prometheus from
// a targets file beside its config.
public sealed class ScaleOutTopology : IAsyncLifetime
{
    public const int ReplicaCount = HAProxyTopology.ReplicaCount;

    private readonly string _work = Path.Combine(Path.GetTempPath(), "webserialization-scaleout-" + Guid.NewGuid().ToString("N")[..12]);
    private HAProxyTopology? _haproxy;

    public Uri[] ReplicaAddresses => Started.ReplicaAddresses;

    public ScaleOutProcess[] Replicas => Started.Replicas;

    public ScaleOutProcess HAProxy => Started.HAProxy;

    /// <summary>A client of the API through HAProxy.</summary>
    public HttpClient Client { get; private set; } = null!;

    private Uri PrometheusAddress { get; set; } = null!;

    private ScaleOutProcess? Prometheus { get; set; }

    private HAProxyTopology Started => _haproxy ?? throw new InvalidOperationException("The topology has not started.");

    public async Task InitializeAsync()
    {
        Directory.CreateDirectory(_work);
        _haproxy = await HAProxyTopology.StartAsync(new HAProxyTopologyStart(
            typeof(OrganizationUploadApi).Assembly.Location,
            RepositoryFolder.Root,
            Models.OrganizationGenerator.ArticleMemberCount,
            new Dictionary<string, string>())
        {
            StartTimeout = TimeSpan.FromMinutes(1),
        });
        Client = new HttpClient { BaseAddress = _haproxy.Address, Timeout = TimeSpan.FromMinutes(2) };

        // Prometheus: deploy/'s configuration, with a targets file that lists these replicas.
        var prometheusDirectory = Directory.CreateDirectory(Path.Combine(_work, "prometheus")).FullName;
        File.Copy(Path.Combine(RepositoryFolder.Root, "deploy", "prometheus", "prometheus.yml"), Path.Combine(prometheusDirectory, "prometheus.yml"));
        Directory.CreateDirectory(Path.Combine(prometheusDirectory, "targets"));
        await File.WriteAllTextAsync(
            Path.Combine(prometheusDirectory, "targets", "loopback.json"),
            JsonSerializer.Serialize(new[] { new { targets = ReplicaAddresses.Select(address => address.Authority).ToArray() } }));
        PrometheusAddress = LoopbackPort.FreeAddress();
        var prometheus = Prometheus = ScaleOutProcess.Start("prometheus", new ProcessStartInfo("prometheus",
        [
            "--config.file=" + Path.Combine(prometheusDirectory, "prometheus.yml"),
            "--storage.tsdb.path=" + Path.Combine(_work, "tsdb"),
            "--web.listen-address=" + PrometheusAddress.Authority,
        ])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        });
        await Healthz.WaitAsync(
            PrometheusAddress,
            () => prometheus.HasExited,
            TimeSpan.FromMinutes(1),
            () => new InvalidOperationException($"prometheus exited:\n{prometheus.Transcript()}"),
            () => new TimeoutException($"prometheus did not answer /-/ready within a minute:\n{prometheus.Transcript()}"),
            CancellationToken.None,
            "/-/ready");
    }

    /// <summary>Starts replica <paramref name="index"/> on its address and waits until it answers /healthz.</summary>
    public Task StartReplicaAsync(int index) => Started.StartReplicaAsync(index);

    /// <summary>
    /// Waits until Prometheus holds a scrape of every replica that began at or after <paramref name="moment"/> (at most
    /// 30 s: it scrapes every 5 s, and its first scrapes wait for service discovery).
    /// </summary>
    public async Task ScrapedSinceAsync(DateTimeOffset moment)
    {
        var since = (moment.ToUnixTimeMilliseconds() / 1000.0).ToString("0.000", CultureInfo.InvariantCulture);
        // timestamp() of a selector is its scrape's start; of a comparison's result it would be the query's own time.
        const string Up = "up{job=\"webserialization\"}";
        var query = $"count(timestamp({Up}) >= {since} and {Up} == 1)";
        var waited = Stopwatch.StartNew();
        double scraped;
        while ((scraped = await QueryAsync(query)) < ReplicaCount)
        {
            if (waited.Elapsed > TimeSpan.FromSeconds(30))
            {
                throw new TimeoutException($"Prometheus scraped {scraped} of {ReplicaCount} replicas in the 30 s after {moment:HH:mm:ss.fff}:\n{Prometheus!.Transcript()}");
            }

            await Task.Delay(500);
        }
    }

    /// <summary>Asks Prometheus for the value of <paramref name="query"/> now (the sum of a vector's samples; 0 when it is empty).</summary>
    public async Task<double> QueryAsync(string query)
    {
        using var client = new HttpClient { BaseAddress = PrometheusAddress };
        using var document = JsonDocument.Parse(await client.GetStringAsync("/api/v1/query?query=" + Uri.EscapeDataString(query)));
        return document.RootElement.GetProperty("data").GetProperty("result").EnumerateArray()
            .Sum(sample => double.Parse(sample.GetProperty("value")[1].GetString()!, CultureInfo.InvariantCulture));
    }

    public async Task DisposeAsync()
    {
        Client?.Dispose();
        if (_haproxy is not null)
        {
            await _haproxy.DisposeAsync();
        }

        if (Prometheus is not null)
        {
            await Prometheus.DisposeAsync();
        }

        if (Directory.Exists(_work))
        {
            Directory.Delete(_work, recursive: true);
        }
    }
}
