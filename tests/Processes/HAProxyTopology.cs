using System.Diagnostics;
using System.Globalization;
using System.Net;

namespace WebSerialization.Tests.Processes;

/// <summary>How <see cref="HAProxyTopology"/> starts its processes.</summary>
/// <param name="ApiAssembly">The built WebSerialization.Api.dll the replicas run.</param>
/// <param name="RepositoryRoot">The checkout whose deploy/haproxy/haproxy.cfg HAProxy is started with.</param>
/// <param name="MemberCount">The organization's member count (Organization__MemberCount).</param>
/// <param name="ReplicaEnvironment">More environment variables for every replica, applied after deploy/compose.yaml's.</param>
public sealed record HAProxyTopologyStart(string ApiAssembly, string RepositoryRoot, int MemberCount, IReadOnlyDictionary<string, string> ReplicaEnvironment)
{
    /// <summary>The CPUs every replica and HAProxy run on (taskset -c; the replicas also with DOTNET_PROCESSOR_COUNT); null for any.</summary>
    public CpuSet? Cpus { get; init; }

    /// <summary>Where each process's lines go, by its name (<c>replica 1</c>, <c>haproxy</c>); null keeps them in <see cref="ScaleOutProcess.Output"/> only.</summary>
    public Func<string, Action<string>>? Output { get; init; }

    /// <summary>How long a process may take to answer /healthz.</summary>
    public TimeSpan StartTimeout { get; init; } = TimeSpan.FromMinutes(3);
}

/// <summary>
/// The scale-out topology of deploy/compose.yaml as processes on loopback: <see cref="ReplicaCount"/> replicas of the
/// built API (Production, with compose.yaml's environment) and Debian's HAProxy started with deploy/haproxy/haproxy.cfg,
/// which reads its addresses from its environment (BIND, API_1..API_3). The integration tests (ScaleOutTopology, which
/// adds Prometheus) and the load runner (--through-haproxy) both start it here.
/// </summary>
public sealed class HAProxyTopology : IAsyncDisposable
{
    public const int ReplicaCount = 3;

    /// <summary>The drain the replicas run with, as deploy/compose.yaml sets it.</summary>
    public const int DrainSeconds = 3;

    private readonly HAProxyTopologyStart _start;

    private HAProxyTopology(HAProxyTopologyStart start)
    {
        _start = start;
        for (var i = 0; i < ReplicaCount; i++)
        {
            ReplicaAddresses[i] = LoopbackPort.FreeAddress();
        }

        Address = LoopbackPort.FreeAddress();
    }

    /// <summary>Where HAProxy listens: the API as its clients reach it.</summary>
    public Uri Address { get; }

    public Uri[] ReplicaAddresses { get; } = new Uri[ReplicaCount];

    public ScaleOutProcess[] Replicas { get; } = new ScaleOutProcess[ReplicaCount];

    public ScaleOutProcess HAProxy { get; private set; } = null!;

    /// <summary>
    /// Starts the replicas, waits until each answers /healthz, then HAProxy in front of them, and waits until /healthz
    /// answers through it. Throws <see cref="InvalidOperationException"/> (a process exited or could not be started) or
    /// <see cref="TimeoutException"/> with the process's last lines, after stopping what it started.
    /// </summary>
    public static async Task<HAProxyTopology> StartAsync(HAProxyTopologyStart start, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(start);
        var topology = new HAProxyTopology(start);
        try
        {
            await Task.WhenAll(Enumerable.Range(0, ReplicaCount).Select(index => topology.StartReplicaAsync(index, cancellationToken)));
            topology.HAProxy = topology.Run("haproxy", HAProxyStart(start, topology.Address, topology.ReplicaAddresses));
            await WaitUntilHealthyAsync(topology.Address, topology.HAProxy, start.StartTimeout, cancellationToken);
            return topology;
        }
        catch
        {
            await topology.DisposeAsync();
            throw;
        }
    }

    /// <summary>Starts replica <paramref name="index"/> (again) on its address and waits until it answers /healthz.</summary>
    public async Task StartReplicaAsync(int index, CancellationToken cancellationToken = default)
    {
        var environment = new Dictionary<string, string>
        {
            ["Metrics__Enabled"] = "true",
            ["Shutdown__DrainSeconds"] = DrainSeconds.ToString(CultureInfo.InvariantCulture),

            // HAProxy's address, as compose.yaml trusts it: the clients' addresses come from its X-Forwarded-For.
            ["Limits__TrustedProxies__0"] = "127.0.0.1",
        };
        foreach (var (name, value) in _start.ReplicaEnvironment)
        {
            environment[name] = value;
        }

        var info = ApiProcessStart.Info(_start.ApiAssembly, ReplicaAddresses[index], LoopbackPort.Free(), _start.MemberCount, environment, _start.Cpus);
        var replica = Replicas[index] = Run($"replica {index + 1}", info);
        await WaitUntilHealthyAsync(ReplicaAddresses[index], replica, _start.StartTimeout, cancellationToken);
    }

    /// <summary>Kills every process at once, for an exit path that cannot wait.</summary>
    public void KillNow()
    {
        foreach (var process in Processes())
        {
            process.KillNow();
        }
    }

    /// <summary>The first process of the topology that has exited, or null while every one runs.</summary>
    public ScaleOutProcess? Exited() => Processes().FirstOrDefault(process => process.HasExited);

    public async ValueTask DisposeAsync()
    {
        foreach (var process in Processes())
        {
            await process.DisposeAsync();
        }
    }

    // Those started so far: a start that failed midway leaves the others null.
    private IEnumerable<ScaleOutProcess> Processes() => Replicas.Append(HAProxy).OfType<ScaleOutProcess>();

    private ScaleOutProcess Run(string name, ProcessStartInfo info)
    {
        try
        {
            return ScaleOutProcess.Start(name, info, _start.Output?.Invoke(name));
        }
        catch (System.ComponentModel.Win32Exception exception)
        {
            throw new InvalidOperationException($"Cannot start {name} with {info.FileName} ({exception.Message}).", exception);
        }
    }

    // HAProxy in the foreground (-db) with deploy/'s configuration; only its addresses come from here.
    private static ProcessStartInfo HAProxyStart(HAProxyTopologyStart start, Uri address, Uri[] replicas)
    {
        string[] haproxy = ["haproxy", "-db", "-f", Path.Combine(start.RepositoryRoot, "deploy", "haproxy", "haproxy.cfg")];
        var info = start.Cpus is { } cpus
            ? new ProcessStartInfo(ApiProcessStart.TasksetPath, ["-c", cpus.ToString(), .. haproxy])
            : new ProcessStartInfo(haproxy[0], haproxy[1..]);
        info.RedirectStandardOutput = true;
        info.RedirectStandardError = true;
        info.Environment["BIND"] = address.Authority;
        for (var i = 0; i < replicas.Length; i++)
        {
            info.Environment[$"API_{i + 1}"] = replicas[i].Authority;
        }

        return info;
    }

    private static Task WaitUntilHealthyAsync(Uri address, ScaleOutProcess process, TimeSpan timeout, CancellationToken cancellationToken) => Healthz.WaitAsync(
        address,
        () => process.HasExited,
        timeout,
        () => new InvalidOperationException($"{process.Name} exited with code {process.ExitCode} before answering /healthz:\n{process.Transcript()}"),
        () => new TimeoutException($"{process.Name} did not answer /healthz within {timeout.TotalSeconds:0} s:\n{process.Transcript()}"),
        cancellationToken);
}
