using System.Globalization;
using System.Net;
using WebSerialization.Load.Cpus;
using WebSerialization.Models.Diagnostics;
using WebSerialization.Tests.Processes;

namespace WebSerialization.Load.Server;

/// <summary>
/// A server to load and how to observe it: the HTTP client, its runtime counters (null when the endpoint is off),
/// the working-set probe, and its idle working set when the connection was made, which is the baseline that
/// "raises the working set by" is measured from. Owns the server process when the runner started it.
/// </summary>
public sealed class ServerConnection : IAsyncDisposable
{
    private ServerConnection(ApiServerProcess? process, HttpClient client, RuntimeCountersClient? counters, WorkingSetProbe? workingSet, long idleWorkingSet, string description, ServerMetricsClient? metrics, RuntimeCounters? first = null)
    {
        ProcessorCount = first?.ProcessorCount;
        ProcessId = LocalProcessId(process, client.BaseAddress!, first);
        Cpus = first is null || ProcessId is null ? null : CpuAffinity.OfProcess(ProcessId.Value);
        Metrics = metrics;
        Process = process;
        Client = client;
        Grpc = new GrpcConnection(process?.GrpcAddress ?? GrpcConnection.DefaultAddress(client.BaseAddress!));
        Counters = counters;
        WorkingSet = workingSet;
        IdleWorkingSet = idleWorkingSet;
        Description = description;
    }

    /// <summary>The server process, when the runner started it.</summary>
    public ApiServerProcess? Process { get; }

    public HttpClient Client { get; }

    /// <summary>The server's gRPC endpoint (h2c, its own port).</summary>
    public GrpcConnection Grpc { get; }

    public RuntimeCountersClient? Counters { get; }

    /// <summary>The server's Prometheus metrics; null when it does not publish them (Metrics:Enabled off).</summary>
    public ServerMetricsClient? Metrics { get; }

    public WorkingSetProbe? WorkingSet { get; }

    /// <summary>The server's working set when the connection was made, before any load; 0 without counters.</summary>
    public long IdleWorkingSet { get; }

    /// <summary>The server's process id on this machine (the runner's own, or from its counters); null when unknown.</summary>
    public int? ProcessId { get; }

    /// <summary>The processors the server's runtime sees (Environment.ProcessorCount); null without counters.</summary>
    public int? ProcessorCount { get; }

    /// <summary>The CPUs the server may run on, read from /proc; null when unknown.</summary>
    public CpuSet? Cpus { get; }

    /// <summary>What the server is, for the reports.</summary>
    public string Description { get; }

    /// <summary>Connects to <paramref name="process"/> (started by the runner) or to <paramref name="url"/>.</summary>
    public static async Task<ServerConnection> OpenAsync(ApiServerProcess? process, Uri? url, CancellationToken cancellationToken)
    {
        var handler = new SocketsHttpHandler
        {
            UseProxy = false,
            AutomaticDecompression = DecompressionMethods.None,
            ConnectTimeout = TimeSpan.FromSeconds(10),
        };
        var client = new HttpClient(handler) { BaseAddress = process?.BaseAddress ?? url, Timeout = Timeout.InfiniteTimeSpan };
        try
        {
            var counters = new RuntimeCountersClient(client);
            var first = await counters.TryReadAsync(cancellationToken);
            if (first is null)
            {
                Console.WriteLine("NOTE: the server's /diagnostics/runtime is off (404): no allocation, GC or working-set figures. Start it with Diagnostics__RuntimeEndpoint=true.");
                return new ServerConnection(process, client, null, null, 0, Describe(process, url, null, 0), null);
            }

            var workingSet = process is not null
                ? WorkingSetProbe.ForLocalProcess(process.ProcessId, counters)
                : WorkingSetProbe.ThroughCounters(counters);
            var idle = await workingSet.ReadAsync(cancellationToken);
            var metrics = new ServerMetricsClient(client);
            if (await metrics.TryReadAsync(cancellationToken) is null)
            {
                Console.WriteLine("NOTE: the server's /metrics is off (404): no standard allocation, GC or working-set metrics beside the precise counters. Start it with Metrics__Enabled=true.");
                metrics = null;
            }

            return new ServerConnection(process, client, counters, workingSet, idle, Describe(process, url, first, idle), metrics, first);
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

    // The server's process id on this machine; a server elsewhere (--remote) has its own process ids, not this machine's.
    private static int? LocalProcessId(ApiServerProcess? process, Uri address, RuntimeCounters? counters) =>
        process?.ProcessId ?? (LoadCommandLine.IsLoopback(address) ? counters?.ProcessId : null);

    private static string Describe(ApiServerProcess? process, Uri? url, RuntimeCounters? counters, long idleWorkingSet)
    {
        var runtime = counters is null ? "runtime counters off"
            : string.Create(CultureInfo.InvariantCulture, $"{(counters.IsServerGC ? "server" : "workstation")} GC, {counters.ProcessorCount} processor{(counters.ProcessorCount == 1 ? string.Empty : "s")}, ")
                + (LocalProcessId(process, url ?? process!.BaseAddress, counters) is { } id && CpuAffinity.OfProcess(id) is { } cpus ? $"may run on {cpus.Describe()}, " : string.Empty)
                + string.Create(CultureInfo.InvariantCulture, $"idle working set {idleWorkingSet / Units.BytesPerMegabyte:0.0} MB");
        return process is null
            ? $"already running at {url} (not started by the runner); {runtime}"
            : $"pid {process.ProcessId} at {process.BaseAddress}; {runtime}";
    }
}
