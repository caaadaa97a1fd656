using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Text.Json;
using WebSerialization.Api.Organizations;
using WebSerialization.Tests.Processes;
using WebSerialization.Tests.Support;

namespace WebSerialization.IntegrationTests.ScaleOut;

// The topology of deploy/compose.yaml as processes on loopback: three replicas of the built API (Production, metrics
// on, the drain of deploy/), Debian's HAProxy and Prometheus started with the configuration files in deploy/. Only
// the addresses differ: HAProxy reads them from its environment, Prometheus from a targets file beside its config.
public sealed class ScaleOutTopology : IAsyncLifetime
{
    public const int ReplicaCount = 3;

    /// <summary>The drain the replicas run with, as deploy/compose.yaml sets it.</summary>
    public const int DrainSeconds = 3;

    private readonly string _work = Path.Combine(Path.GetTempPath(), "webserialization-scaleout-" + Guid.NewGuid().ToString("N")[..12]);
    private readonly string _deploy = Path.Combine(RepositoryFolder.Root, "deploy");

    public Uri[] ReplicaAddresses { get; } = new Uri[ReplicaCount];

    public ScaleOutProcess[] Replicas { get; } = new ScaleOutProcess[ReplicaCount];

    public ScaleOutProcess HAProxy { get; private set; } = null!;

    /// <summary>A client of the API through HAProxy.</summary>
    public HttpClient Client { get; private set; } = null!;

    public Uri PrometheusAddress { get; private set; } = null!;

    private ScaleOutProcess? Prometheus { get; set; }

    public async Task InitializeAsync()
    {
        Directory.CreateDirectory(_work);
        for (var i = 0; i < ReplicaCount; i++)
        {
            ReplicaAddresses[i] = new Uri($"http://127.0.0.1:{LoopbackPort.Free().ToString(CultureInfo.InvariantCulture)}");
        }

        await Task.WhenAll(Enumerable.Range(0, ReplicaCount).Select(StartReplicaAsync));

        var haproxyAddress = new Uri($"http://127.0.0.1:{LoopbackPort.Free().ToString(CultureInfo.InvariantCulture)}");
        var haproxy = new ProcessStartInfo("haproxy", ["-db", "-f", Path.Combine(_deploy, "haproxy", "haproxy.cfg")])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            Environment = { ["BIND"] = haproxyAddress.Authority },
        };
        for (var i = 0; i < ReplicaCount; i++)
        {
            haproxy.Environment[$"API_{i + 1}"] = ReplicaAddresses[i].Authority;
        }

        HAProxy = ScaleOutProcess.Start("haproxy", haproxy);
        Client = new HttpClient { BaseAddress = haproxyAddress, Timeout = TimeSpan.FromMinutes(2) };
        await WaitForAsync(Client, "/healthz", HAProxy);

        // Prometheus: deploy/'s configuration, with a targets file that lists these replicas.
        var prometheusDirectory = Directory.CreateDirectory(Path.Combine(_work, "prometheus")).FullName;
        File.Copy(Path.Combine(_deploy, "prometheus", "prometheus.yml"), Path.Combine(prometheusDirectory, "prometheus.yml"));
        Directory.CreateDirectory(Path.Combine(prometheusDirectory, "targets"));
        await File.WriteAllTextAsync(
            Path.Combine(prometheusDirectory, "targets", "loopback.json"),
            JsonSerializer.Serialize(new[] { new { targets = ReplicaAddresses.Select(address => address.Authority).ToArray() } }));
        PrometheusAddress = new Uri($"http://127.0.0.1:{LoopbackPort.Free().ToString(CultureInfo.InvariantCulture)}");
        Prometheus = ScaleOutProcess.Start("prometheus", new ProcessStartInfo("prometheus",
        [
            "--config.file=" + Path.Combine(prometheusDirectory, "prometheus.yml"),
            "--storage.tsdb.path=" + Path.Combine(_work, "tsdb"),
            "--web.listen-address=" + PrometheusAddress.Authority,
        ])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        });
        using var prometheusClient = new HttpClient { BaseAddress = PrometheusAddress };
        await WaitForAsync(prometheusClient, "/-/ready", Prometheus);
    }

    /// <summary>Starts replica <paramref name="index"/> on its address and waits until it answers /healthz.</summary>
    public async Task StartReplicaAsync(int index)
    {
        var start = ApiProcessStart.Info(
            typeof(OrganizationUploadApi).Assembly.Location,
            ReplicaAddresses[index],
            LoopbackPort.Free(),
            Models.OrganizationGenerator.ArticleMemberCount,
            new Dictionary<string, string>
            {
                ["Metrics__Enabled"] = "true",
                ["Shutdown__DrainSeconds"] = DrainSeconds.ToString(CultureInfo.InvariantCulture),
                ["Limits__TrustedProxies__0"] = "127.0.0.1",
            });
        var replica = ScaleOutProcess.Start($"replica {index + 1}", start);
        Replicas[index] = replica;
        using var client = new HttpClient { BaseAddress = ReplicaAddresses[index] };
        await WaitForAsync(client, "/healthz", replica);
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
        foreach (var process in Replicas.Append(HAProxy).Append(Prometheus).OfType<ScaleOutProcess>())
        {
            await process.DisposeAsync();
        }

        if (Directory.Exists(_work))
        {
            Directory.Delete(_work, recursive: true);
        }
    }

    private static async Task WaitForAsync(HttpClient client, string path, ScaleOutProcess process)
    {
        var waited = Stopwatch.StartNew();
        while (true)
        {
            Assert.False(process.HasExited, $"{process.Name} exited:\n{process.Transcript()}");
            Assert.True(waited.Elapsed < TimeSpan.FromMinutes(1), $"{process.Name} did not answer {path} within a minute:\n{process.Transcript()}");
            try
            {
                using var response = await client.GetAsync(path);
                if (response.StatusCode == HttpStatusCode.OK)
                {
                    return;
                }
            }
            catch (HttpRequestException)
            {
                // Not listening yet.
            }

            await Task.Delay(100);
        }
    }
}
