using System.Diagnostics;
using WebSerialization.Tests.Processes;

namespace WebSerialization.Load.ScaleOut;

/// <summary>
/// The scale-out topology of a <c>--through-haproxy</c> run under one CPU layout: the replicas and HAProxy as the
/// integration tests start them (<see cref="HAProxyTopology"/>), each process's output in a log file of its own, and a
/// connection each way, straight to replica 1 and through HAProxy. Every process runs on the layout's server CPUs.
/// </summary>
internal sealed class HAProxyConnections : IAsyncDisposable
{
    private readonly HAProxyTopology _topology;
    private readonly List<ProcessLog> _logs;

    private HAProxyConnections(HAProxyTopology topology, List<ProcessLog> logs, ServerConnection straight, ServerConnection throughHAProxy, string description)
    {
        _topology = topology;
        _logs = logs;
        Straight = straight;
        ThroughHAProxy = throughHAProxy;
        Description = description;
    }

    /// <summary>Replica 1, with its /metrics, CPU time and working set: the figures of the main summary.</summary>
    public ServerConnection Straight { get; }

    /// <summary>HAProxy: latencies and throughput only, since its /metrics answer from whichever replica a request reaches.</summary>
    public ServerConnection ThroughHAProxy { get; }

    /// <summary>The topology in words, for the header's server line.</summary>
    public string Description { get; }

    public ServerConnection For(ServerRoute route) => route == ServerRoute.ThroughHAProxy ? ThroughHAProxy : Straight;

    /// <summary>
    /// Starts the topology on <paramref name="cpus"/> (null: any), its logs in <paramref name="logDirectory"/> named
    /// <c>replica-N{suffix}.log</c> and <c>haproxy{suffix}.log</c>, and connects both ways. Throws
    /// <see cref="InvalidOperationException"/> when a process cannot start or does not run where it was put.
    /// </summary>
    public static async Task<HAProxyConnections> StartAsync(string assembly, string repositoryRoot, LoadOptions options, CpuSet? cpus, string logDirectory, string logSuffix, string startedServer, CancellationToken cancellationToken)
    {
        var logs = new List<ProcessLog>();
        Action<string> LogOf(string name)
        {
            var log = new ProcessLog(Path.Combine(logDirectory, $"{name.Replace(' ', '-')}{logSuffix}.log"));
            lock (logs)
            {
                logs.Add(log);
            }

            return log.Write;
        }

        // Every virtual user reaches the replicas from 127.0.0.1, straight or through HAProxy's X-Forwarded-For: only the total limit applies to a run.
        var environment = new Dictionary<string, string> { ["Limits__MaxHeavyRequestsPerClient"] = int.MaxValue.ToString(CultureInfo.InvariantCulture) };
        foreach (var (name, value) in options.ServerEnvironment)
            environment[name] = value;

        HAProxyTopology? topology = null;
        try
        {
            topology = await HAProxyTopology.StartAsync(
                new HAProxyTopologyStart(assembly, repositoryRoot, options.MemberCounts.Max(), environment) { Cpus = cpus, Output = LogOf },
                cancellationToken);
            foreach (var process in topology.Replicas.Append(topology.HAProxy))
                ServerPlacement.CheckCpus(process.Name, process.Id, cpus);

            var replica = topology.Replicas[0];
            var straight = await ServerConnection.OpenStartedAsync(topology.ReplicaAddresses[0], replica.Id, readMetrics: true, $"replica 1, pid {replica.Id} at {topology.ReplicaAddresses[0]}", cancellationToken);
            ServerPlacement.CheckProcessorCount("Replica 1", replica.Id, straight, cpus, options);

            var throughHAProxy = await ServerConnection.OpenStartedAsync(topology.Address, null, readMetrics: false,
                $"HAProxy, pid {topology.HAProxy.Id} at {topology.Address} (its /metrics answer from whichever replica a request reaches, so no server figures are read through it)", cancellationToken);
            var description = string.Create(CultureInfo.InvariantCulture, $"{HAProxyTopology.ReplicaCount} replicas (pids {string.Join(", ", topology.Replicas.Select(process => process.Id))}), each the ")
                + $"{startedServer} with deploy/compose.yaml's environment, behind {HAProxyVersion()} started with deploy/haproxy/haproxy.cfg (balance leastconn), once for the whole run"
                + $"{(cpus is null ? string.Empty : $" on {cpus.Describe()}")}. Straight: {straight.Description}. Through HAProxy: {throughHAProxy.Description}";
            return new HAProxyConnections(topology, logs, straight, throughHAProxy, description);
        }
        catch
        {
            if (topology is not null)
                await topology.DisposeAsync();

            CloseLogs(logs);
            throw;
        }
    }

    /// <summary>A process of the topology that has exited, in words; null while every one runs.</summary>
    public string? Exited() => _topology.Exited() is { } process
        ? $"{process.Name} (pid {process.Id}) exited with code {process.ExitCode}; its last line: '{process.Output.LastOrDefault()}'"
        : null;

    /// <summary>Kills every process at once, for the runner's exit path.</summary>
    public void KillNow() => _topology.KillNow();

    public async ValueTask DisposeAsync()
    {
        await Straight.DisposeAsync();
        await ThroughHAProxy.DisposeAsync();
        await _topology.DisposeAsync();
        CloseLogs(_logs);
        Console.WriteLine("Stopped the replicas and HAProxy.");
    }

    // "HAProxy version 2.6.12-1+deb12u4 2026/10/17 - https://haproxy.org/" as "HAProxy 2.6.12-1+deb12u4".
    private static string HAProxyVersion()
    {
        try
        {
            using var haproxy = Process.Start(new ProcessStartInfo("haproxy", ["-v"]) { RedirectStandardOutput = true, RedirectStandardError = true })!;
            var first = haproxy.StandardOutput.ReadLine() ?? string.Empty;
            haproxy.WaitForExit();
            var words = first.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            return words.Length >= 3 && words[1] == "version" ? $"HAProxy {words[2]}" : "HAProxy";
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return "HAProxy";
        }
    }

    private static void CloseLogs(List<ProcessLog> logs)
    {
        lock (logs)
        {
            logs.ForEach(log => log.Close());
        }
    }

    // A process's log file; lines that arrive after it is closed (the process killed meanwhile) are dropped.
    private sealed class ProcessLog(string path)
    {
        private readonly Lock _gate = new();
        private readonly StreamWriter _writer = new(path) { AutoFlush = true };
        private bool _closed;

        public void Write(string line)
        {
            lock (_gate)
            {
                if (!_closed)
                    _writer.WriteLine(line);
            }
        }

        public void Close()
        {
            lock (_gate)
            {
                _closed = true;
                _writer.Dispose();
            }
        }
    }
}
