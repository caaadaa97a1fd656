using WebSerialization.Tests.Processes;

namespace WebSerialization.Load.Cpus;

/// <summary>
/// Which CPUs the server and the load client run on, under each <see cref="CpuLayout"/> the run measures. Split, the
/// default on a machine with two CPUs or more, keeps the client's own work out of the server's figures: the server on
/// <see cref="Server"/>, the client on <see cref="Client"/>, disjoint. Shared is how both ran before: anywhere on
/// <see cref="Available"/>. A run with both measures every scenario under each, one after the other.
/// </summary>
/// <param name="Available">The CPUs the runner may use (its affinity when it started); null where affinity is unknown (not Linux).</param>
/// <param name="Server">The server's CPUs when split; null when the runner does not start the server.</param>
/// <param name="Client">The client's CPUs when split; null when it is not pinned.</param>
/// <param name="Layouts">The layouts measured; the first is the one the summary, the charts and the targets use.</param>
public sealed record CpuPlan(CpuSet? Available, CpuSet? Server, CpuSet? Client, IReadOnlyList<CpuLayout> Layouts)
{
    /// <summary>The layout of the run's main figures.</summary>
    public CpuLayout Primary => Layouts[0];

    /// <summary>True when every scenario is also measured under a second layout, to compare the two.</summary>
    public bool Compares => Layouts.Count > 1;

    /// <summary>
    /// The plan for <paramref name="options"/> on a machine where the runner may use <paramref name="available"/>, whose
    /// physical cores are <paramref name="cores"/> (default: <see cref="CpuTopology.Cores"/>). Throws
    /// <see cref="ArgumentException"/> when the options ask for what cannot be done here.
    /// </summary>
    public static CpuPlan Resolve(LoadOptions options, CpuSet? available, IReadOnlyList<CpuSet>? cores = null)
    {
        var asked = options.ServerCpus is not null || options.ClientCpus is not null || options.CpuLayouts.Contains(CpuLayout.Split);
        if (available is null)
        {
            return asked
                ? throw new ArgumentException("--server-cpus, --client-cpus and --cpu-layout split need Linux's CPU affinity (/proc and taskset); use --cpu-layout shared.")
                : new CpuPlan(null, null, null, [CpuLayout.Shared]);
        }

        if (options.Url is not null)
        {
            // The server is someone else's: only the client can be placed.
            var client = options.ClientCpus is { } given ? Within(given, available, "--client-cpus") : null;
            return new CpuPlan(available, null, client, [client is null ? CpuLayout.Shared : CpuLayout.Split]);
        }

        IReadOnlyList<CpuLayout> layouts = options.CpuLayouts.Count > 0 ? options.CpuLayouts
            : available.Count >= 2 || options.ServerCpus is not null || options.ClientCpus is not null ? [CpuLayout.Split] : [CpuLayout.Shared];
        if (!layouts.Contains(CpuLayout.Split))
        {
            return options.ServerCpus is not null || options.ClientCpus is not null
                ? throw new ArgumentException("--server-cpus and --client-cpus place a split layout: add split to --cpu-layout.")
                : new CpuPlan(available, null, null, layouts);
        }

        if (available.Count < 2)
        {
            throw new ArgumentException($"A split needs two CPUs or more; this runner may use {available.Describe()} only. Use --cpu-layout shared.");
        }

        CpuSet server;
        if (options.ServerCpus is { } serverCpus)
        {
            server = Within(serverCpus, available, "--server-cpus");
        }
        else if (options.ClientCpus is { } clientCpus)
        {
            server = available.Except(Within(clientCpus, available, "--client-cpus"))
                ?? throw new ArgumentException($"--client-cpus {clientCpus} leaves no CPU of {available.Describe()} for the server.");
        }
        else
        {
            server = DefaultServer(available, cores ?? CpuTopology.Cores(available));
        }

        var clientSet = options.ClientCpus is { } explicitClient ? Within(explicitClient, available, "--client-cpus")
            : available.Except(server) ?? throw new ArgumentException($"--server-cpus {server} leaves no CPU of {available.Describe()} for the load client.");
        if (server.Intersect(clientSet) is { } both)
        {
            throw new ArgumentException($"--server-cpus {server} and --client-cpus {clientSet} share {both.Describe()}: a split keeps them apart (--cpu-layout shared shares every CPU).");
        }

        return new CpuPlan(available, server, clientSet, layouts);
    }

    /// <summary>The CPUs the server is started on under <paramref name="layout"/>; null: not pinned.</summary>
    public CpuSet? ServerCpus(CpuLayout layout) => layout == CpuLayout.Split ? Server : null;

    /// <summary>The CPUs the client runs on under <paramref name="layout"/>: its own when split, every available one when shared; null: unknown.</summary>
    public CpuSet? ClientCpus(CpuLayout layout) => layout == CpuLayout.Split && Client is not null ? Client : Available;

    public string Describe(CpuLayout layout) => layout switch
    {
        CpuLayout.Split when Server is not null =>
            string.Create(CultureInfo.InvariantCulture, $"split: the server on {Server.Describe()} (started under taskset -c {Server}, DOTNET_PROCESSOR_COUNT={Server.Count}), the load client on {Client!.Describe()}"),
        CpuLayout.Split => $"the load client on {Client!.Describe()}, the server where it was started (see Server)",
        _ when Available is null => "shared: the server and the load client on any CPU (CPU affinity is not known here)",
        _ => $"shared: the server and the load client both on {Available.Describe()}, wherever the scheduler puts them",
    };

    /// <summary>Where the server and the client ran under <paramref name="layout"/>, in a few words for README's caption.</summary>
    public string Placement(CpuLayout layout) => layout switch
    {
        CpuLayout.Split when Server is not null => $"the server on {Server.Describe()}, the client on {Client!.Describe()}",
        CpuLayout.Split => $"the client on {Client!.Describe()}",
        _ when Available is null => "the server and the client on any CPU",
        _ => $"the server and the client sharing {Available.Describe()}",
    };

    /// <summary>Every layout of the run in words, for the head of its reports.</summary>
    public string Describe() => Compares
        ? $"{Describe(Layouts[0])}; and, beside it, {Describe(Layouts[1])}. Every scenario and load ran under both, one after the other; the main figures are {Name(Primary)}, and \"{CpuLayoutComparison.Title}\" compares them"
        : Describe(Primary);

    /// <summary>The layout's name in reports and on the command line.</summary>
    public static string Name(CpuLayout layout) => layout == CpuLayout.Split ? "split" : "shared";

    // The first half of the physical cores, rounded up (the server is what is measured); of the logical CPUs when there
    // is one core only.
    private static CpuSet DefaultServer(CpuSet available, IReadOnlyList<CpuSet> cores)
    {
        IReadOnlyList<CpuSet> units = cores.Count >= 2 ? cores : [.. available.Cpus.Select(cpu => CpuSet.Of([cpu]))];
        return CpuSet.Of(units.Take((units.Count + 1) / 2).SelectMany(core => core.Cpus));
    }

    private static CpuSet Within(CpuSet cpus, CpuSet available, string option) =>
        cpus.IsSubsetOf(available) ? cpus : throw new ArgumentException($"{option} {cpus}: this runner may use {available.Describe()} only.");
}
