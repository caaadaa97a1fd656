using WebSerialization.Tests.Processes;

namespace WebSerialization.Load.Running;

/// <summary>What a run will do before it does any of it: the scenarios, the loads, the CPUs, where the reports go and how long
/// the whole may take. The overall timeout bounds the planned load plus a margin and an allowance per server start.</summary>
internal sealed record RunPlan(IReadOnlyList<string> Args, LoadOptions Options, IReadOnlyList<LoadScenario> Scenarios, CpuPlan Cpus, IReadOnlyList<(int Copies, double? Rate)> Loads,
    string? RepositoryRoot, string ReportDirectory, int Runs, int CapacitySteps, TimeSpan Planned, TimeSpan Timeout)
{
    private static readonly TimeSpan TimeoutMargin = TimeSpan.FromMinutes(5);

    // Generating 1,000,000 members and starting takes a few seconds; this is a bound for the default timeout, not an estimate.
    private static readonly TimeSpan ServerStartAllowance = TimeSpan.FromSeconds(15);

    /// <summary>A server per scenario and load, rather than one for the whole run.</summary>
    public bool ServerPerScenario => Options.Url is null && !Options.SharedServer && !Options.ThroughHAProxy;

    /// <summary>
    /// The routes each scenario and load is measured by in <paramref name="repetition"/>, in order: straight only, or
    /// with --through-haproxy both, straight first in odd repetitions and through HAProxy first in even ones, so that
    /// neither route always runs second, on replicas the other has just warmed.
    /// </summary>
    public IReadOnlyList<ServerRoute> Routes(int repetition) =>
        !Options.ThroughHAProxy ? [ServerRoute.Straight]
        : repetition % 2 == 1 ? [ServerRoute.Straight, ServerRoute.ThroughHAProxy]
        : [ServerRoute.ThroughHAProxy, ServerRoute.Straight];

    /// <summary>The plan, or null with the reason written to standard error.</summary>
    public static async Task<RunPlan?> CreateAsync(IReadOnlyList<string> args, LoadOptions options, string? repositoryRoot, IReadOnlyList<LoadScenario> registered)
    {
        var scenarios = ScenarioSelection.Select(options, registered);
        options = BaselineScenarios.SwitchOn(options, scenarios);
        if (scenarios.Count == 0 || (options.Url is null && repositoryRoot is null))
        {
            await Console.Error.WriteLineAsync(scenarios.Count == 0
                ? $"No scenario name starts with any of: {string.Join(", ", options.ScenarioFilters)}. Scenario names: {string.Join(", ", ScenarioSelection.Select(options with { ScenarioFilters = [] }).Concat(registered).Select(s => s.Name))}."
                : "Cannot find WebSerialization.sln above this program or the current folder, so cannot start the API: pass --url.");
            return null;
        }

        if (await ResolveCpusAsync(options) is not { } cpus)
            return null;

        var loads = LoadsOf(options);
        var runs = scenarios.Count * loads.Count * options.Repetitions * cpus.Layouts.Count * (options.ThroughHAProxy ? 2 : 1);
        var capacitySteps = options.Capacity ? CapacitySearch.From(options).Rates().Count() : 1;
        var planned = (options.WarmUp + (options.Duration * capacitySteps)) * runs;
        var serverStarts = options.Url is not null ? 0
            : options.ThroughHAProxy ? cpus.Layouts.Count * (HAProxyTopology.ReplicaCount + 1)
            : options.SharedServer ? cpus.Layouts.Count : runs;
        // A capacity search may run each rate up to --step-attempts times; the overall timeout allows for all of them.
        var retries = options.Capacity ? options.Duration * capacitySteps * (options.StepAttempts - 1) * runs : TimeSpan.Zero;
        var timeout = options.OverallTimeout ?? planned + retries + TimeoutMargin + (ServerStartAllowance * serverStarts);
        var reportDirectory = Path.Combine(
            options.ReportsDirectory ?? Path.Combine(repositoryRoot ?? Environment.CurrentDirectory, "reports"),
            $"load-{DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture)}{(options.Smoke ? "-smoke" : string.Empty)}");
        Directory.CreateDirectory(reportDirectory);
        return new RunPlan(args, options, scenarios, cpus, loads, repositoryRoot, reportDirectory, runs, capacitySteps, planned, timeout);
    }

    /// <summary>Where the server and the client run on this machine, or null with the reason written to standard error.</summary>
    public static async Task<CpuPlan?> ResolveCpusAsync(LoadOptions options)
    {
        try
        {
            return CpuPlan.Resolve(options, CpuAffinity.IsSupported ? CpuAffinity.OfProcess(Environment.ProcessId) : null);
        }
        catch (ArgumentException exception)
        {
            await Console.Error.WriteLineAsync(exception.Message);
            return null;
        }
    }

    /// <summary>Prints the plan, the CPUs and the report folder, before anything starts.</summary>
    public void Announce()
    {
        var repetitions = Options.Repetitions > 1 ? $" x {Options.Repetitions} repetitions ({RunDescription.Create(Args, Options, string.Empty, string.Empty).RepetitionServer})" : string.Empty;
        var load = (Options.Capacity ? $"a capacity search of up to {CapacitySteps} steps" : Options.Rates.Count > 0 ? $"rates {string.Join(',', Options.Rates)}/s" : $"copies {string.Join(',', Options.Copies)}")
            + (Options.ThroughHAProxy ? " x 2 routes (straight to replica 1, through HAProxy)" : string.Empty);
        Console.WriteLine($"Plan ({Options.Mode}): {Scenarios.Count} scenarios x {load}{repetitions}, warm-up {Options.WarmUp.TotalSeconds:0.#} s + "
            + $"duration {Options.Duration.TotalSeconds:0.#} s each: at most {Planned:hh\\:mm\\:ss} of load in {Runs} runs; the run stops itself after {Timeout:hh\\:mm\\:ss}.");
        Console.WriteLine($"CPUs: {CpusDescription}.");
        Console.WriteLine($"Reports: {ReportDirectory}");
    }

    /// <summary>Where the server, or the replicas and HAProxy, and the client run, for the head of the reports.</summary>
    public string CpusDescription => Options.ThroughHAProxy ? HAProxyComparison.Placement(Cpus) : Cpus.Describe();

    /// <summary>How the runner starts the API, for the reports; worked out once per run (--api-from asks git for the commit).</summary>
    public string StartedServer { get; } =
        $"Release build of src/Api{(Options.ApiFrom is { } from ? $" in {from} (commit {ApiServerProcess.CommitOf(from)})" : string.Empty)} on a free 127.0.0.1 port, ASPNETCORE_ENVIRONMENT=Production, Metrics__Enabled=true, "
        + $"Organization__MemberCount={Options.MemberCounts.Max().ToString(CultureInfo.InvariantCulture)}"
        + string.Concat(Options.ServerEnvironment.Select(variable => $", {variable.Key}={variable.Value}"));

    /// <summary>Where a layout's scenario reports go: a second layout's to a folder of its own, so that both keep the scenario's file names.</summary>
    public string LayoutDirectory(CpuLayout layout)
    {
        if (layout == Cpus.Primary)
            return ReportDirectory;

        var directory = Path.Combine(ReportDirectory, CpuPlan.Name(layout));
        Directory.CreateDirectory(directory);
        return directory;
    }

    // Where the scenarios' loads come from: one capacity search, the open model's rates, or the closed model's copies.
    private static IReadOnlyList<(int Copies, double? Rate)> LoadsOf(LoadOptions options) =>
        options.Capacity ? [(1, null)]
        : options.Rates.Count > 0 ? [.. options.Rates.Select(rate => (1, (double?)rate))]
        : [.. options.Copies.Select(copies => (copies, (double?)null))];
}
