using System.Net;
using WebSerialization.Tests.Processes;

namespace WebSerialization.Load.Server;

/// <summary>
/// A server to load and how to observe it: the HTTP client, its <c>/metrics</c> (null when they are off), the
/// working-set probe, and its idle working set when the connection was made, which is the baseline that "raises the
/// working set by" is measured from. Owns the server process when the runner started it.
/// </summary>
public sealed class ServerConnection : IAsyncDisposable
{
    private ServerConnection(ApiServerProcess? process, int? processId, HttpClient client, ServerMetricsClient? metrics, WorkingSetProbe? workingSet, long idleWorkingSet, string description, ServerMetrics? first = null)
    {
        ProcessorCount = first?.ProcessorCount;
        ProcessId = processId;
        Metrics = metrics;
        Process = process;
        Client = client;
        Grpc = new GrpcConnection(process?.GrpcAddress ?? GrpcConnection.DefaultAddress(client.BaseAddress!));
        WorkingSet = workingSet;
        IdleWorkingSet = idleWorkingSet;
        Description = description;
    }

    public ApiServerProcess? Process { get; }

    public HttpClient Client { get; }

    public GrpcConnection Grpc { get; }

    public ScenarioClients Clients => new(Client, Grpc);

    /// <summary>The server's Prometheus metrics, its cost's one channel; null when it does not publish them (Metrics:Enabled off).</summary>
    public ServerMetricsClient? Metrics { get; }

    public WorkingSetProbe? WorkingSet { get; }

    /// <summary>The server's working set when the connection was made, before any load; 0 without metrics.</summary>
    public long IdleWorkingSet { get; }

    /// <summary>The server's process id, when the runner started it; null for a server given by <c>--url</c>, and for HAProxy.</summary>
    public int? ProcessId { get; }

    /// <summary>The processors the server's runtime sees (<c>dotnet.process.cpu.count</c>); null without metrics.</summary>
    public int? ProcessorCount { get; }

    public string Description { get; }

    /// <summary>Connects to <paramref name="process"/> (started by the runner) or to <paramref name="url"/>.</summary>
    public static Task<ServerConnection> OpenAsync(ApiServerProcess? process, Uri? url, CancellationToken cancellationToken) =>
        OpenAsync(
            process,
            process?.ProcessId,
            process?.BaseAddress ?? url ?? throw new ArgumentNullException(nameof(url)),
            readMetrics: true,
            process is null ? $"already running at {url} (not started by the runner)" : $"pid {process.ProcessId} at {process.BaseAddress}",
            cancellationToken);

    /// <summary>
    /// Connects to a process of the scale-out topology the runner started (<see cref="HAProxyConnections"/>): a replica,
    /// whose <paramref name="processId"/> gives its CPU time and working set, or HAProxy, whose /metrics would answer
    /// from whichever replica a request reached, so that <paramref name="readMetrics"/> is false and no server figures are read.
    /// </summary>
    public static Task<ServerConnection> OpenStartedAsync(Uri address, int? processId, bool readMetrics, string name, CancellationToken cancellationToken) =>
        OpenAsync(null, processId, address, readMetrics, name, cancellationToken);

    private static async Task<ServerConnection> OpenAsync(ApiServerProcess? process, int? processId, Uri address, bool readMetrics, string name, CancellationToken cancellationToken)
    {
        var handler = new SocketsHttpHandler
        {
            UseProxy = false,
            AutomaticDecompression = DecompressionMethods.None,
            ConnectTimeout = TimeSpan.FromSeconds(10),
        };
        var client = new HttpClient(handler) { BaseAddress = address, Timeout = Timeout.InfiniteTimeSpan };
        try
        {
            if (!readMetrics)
            {
                return new ServerConnection(process, processId, client, null, null, 0, name);
            }

            var metrics = new ServerMetricsClient(client);
            var first = await metrics.TryReadAsync(cancellationToken);
            if (first is null)
            {
                Console.WriteLine("NOTE: the server's /metrics is off (404): no allocation, GC or working-set figures. Start it with Metrics__Enabled=true.");
                return new ServerConnection(process, processId, client, null, null, 0, Describe(name, processId, null, 0));
            }

            var workingSet = processId is { } id
                ? WorkingSetProbe.ForLocalProcess(id, metrics)
                : WorkingSetProbe.ThroughMetrics(metrics);
            var idle = await workingSet.ReadAsync(cancellationToken);
            return new ServerConnection(process, processId, client, metrics, workingSet, idle, Describe(name, processId, first, idle), first);
        }
        catch
        {
            client.Dispose();
            throw;
        }
    }

    public async ValueTask DisposeAsync()
    {
        Client.Dispose();
        Grpc.Dispose();
        if (Process is not null)
        {
            await Process.DisposeAsync();
        }
    }

    private static string Describe(string name, int? processId, ServerMetrics? metrics, long idleWorkingSet)
    {
        var runtime = metrics is null ? "metrics off"
            : (metrics.ProcessorCount is { } processors ? string.Create(CultureInfo.InvariantCulture, $"{processors} processor{(processors == 1 ? string.Empty : "s")}, ") : string.Empty)
                + (processId is { } id && CpuAffinity.OfProcess(id) is { } cpus ? $"may run on {cpus.Describe()}, " : string.Empty)
                + string.Create(CultureInfo.InvariantCulture, $"idle working set {idleWorkingSet / Units.BytesPerMegabyte:0.0} MB");
        return $"{name}; {runtime}";
    }
}
