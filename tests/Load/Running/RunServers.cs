using WebSerialization.Tests.Processes;

namespace WebSerialization.Load.Running;

/// <summary>The servers of a run: one per CPU layout for the whole run, or a fresh one per scenario and load, or with
/// --through-haproxy the replicas and HAProxy once per CPU layout; each started on its layout's CPUs with the runner
/// moved to the client's first, so that the server never shares a CPU with the client in a split, not even while it starts.</summary>
internal sealed class RunServers(RunPlan plan, RunRecord record, string? assembly, CancellationToken stop) : IAsyncDisposable
{
    private readonly Dictionary<CpuLayout, ServerConnection> shared = [];
    private readonly Dictionary<CpuLayout, HAProxyConnections> topologies = [];
    private CpuSet? clientCpus = plan.Cpus.Available;
    private ApiServerProcess? running;

    /// <summary>Kills the last server started, at once: for the runner's own exit.</summary>
    public void KillNow()
    {
        running?.KillNow();
        foreach (var topology in topologies.Values)
            topology.KillNow();
    }

    /// <summary>A server of <paramref name="layout"/> for one scenario and load; the caller disposes it.</summary>
    public async Task<ServerConnection> OpenAsync(string logName, CpuLayout layout)
    {
        await PinClientAsync(layout);
        var serverCpus = plan.Cpus.ServerCpus(layout);
        var process = assembly is null
            ? null
            : await ApiServerProcess.StartAsync(assembly, plan.Options.MemberCounts.Max(), plan.Options.ServerEnvironment, Path.Combine(plan.ReportDirectory, logName), serverCpus, stop);
        running = process;
        try
        {
            var connection = await ServerConnection.OpenAsync(process, plan.Options.Url, stop);
            if (connection.Process is { } started)
            {
                ServerPlacement.CheckCpus("The API", started.ProcessId, serverCpus);
                ServerPlacement.CheckProcessorCount("The API", started.ProcessId, connection, serverCpus, plan.Options);
            }

            return connection;
        }
        catch
        {
            if (process is not null)
                await process.DisposeAsync();

            throw;
        }
    }

    /// <summary>The layout's server for the whole run reached by <paramref name="route"/>, started when the run first needs it:
    /// with --through-haproxy, replica 1 straight or HAProxy in front of the replicas; otherwise the one server.</summary>
    public async Task<ServerConnection> SharedAsync(CpuLayout layout, ServerRoute route)
    {
        if (!plan.Options.ThroughHAProxy)
            return await SharedAsync(layout);

        await PinClientAsync(layout);
        if (!topologies.TryGetValue(layout, out var topology))
        {
            var suffix = plan.Cpus.Compares ? $"-{CpuPlan.Name(layout)}" : string.Empty;
            topology = topologies[layout] = await HAProxyConnections.StartAsync(
                assembly ?? throw new InvalidOperationException("--through-haproxy starts the API it builds."), plan.RepositoryRoot!, plan.Options, plan.Cpus.ServerCpus(layout), plan.ReportDirectory, suffix, plan.StartedServer, stop);
            record.Run = record.Run with { Server = topology.Description };
            Console.WriteLine($"Server: {record.Run.Server}");
        }

        return topology.For(route);
    }

    /// <summary>The process of the layout's replicas and HAProxy that has exited, in words; null while they all run or there are none.</summary>
    public string? Exited(CpuLayout layout) => topologies.TryGetValue(layout, out var topology) ? topology.Exited() : null;

    /// <summary>The layout's server for the whole run, started when the run first needs it.</summary>
    public async Task<ServerConnection> SharedAsync(CpuLayout layout)
    {
        if (shared.TryGetValue(layout, out var connection))
        {
            await PinClientAsync(layout);
            return connection;
        }

        var cpus = plan.Cpus;
        var suffix = cpus.Compares ? $"-{CpuPlan.Name(layout)}" : string.Empty;
        connection = shared[layout] = await OpenAsync($"server{suffix}.log", layout);
        var described = (plan.Options.Url is null ? "one process for the whole run" + (cpus.Compares ? " per CPU layout" : string.Empty) + ", started by the runner (" + plan.StartedServer + "): " : string.Empty)
            + (cpus.Compares ? $"{CpuPlan.Name(layout)}: " : string.Empty) + connection.Description;
        record.Run = record.Run with { Server = shared.Count == 1 ? described : $"{record.Run.Server}; {CpuPlan.Name(layout)}: {connection.Description}" };
        Console.WriteLine($"Server: {record.Run.Server}");
        return connection;
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var server in shared.Values)
            await server.DisposeAsync();

        foreach (var topology in topologies.Values)
            await topology.DisposeAsync();

        running?.KillNow();
    }

    private async Task PinClientAsync(CpuLayout layout)
    {
        if (plan.Cpus.ClientCpus(layout) is { } client && !client.Equals(clientCpus))
        {
            await CpuAffinity.PinThisProcessAsync(client, stop);
            clientCpus = client;
        }
    }
}
