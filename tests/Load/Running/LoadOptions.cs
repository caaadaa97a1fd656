using WebSerialization.Load.Cpus;
using WebSerialization.Tests.Processes;

namespace WebSerialization.Load.Running;

/// <summary>What one load run does. Every run is bounded: each scenario warms up and runs for a fixed time with a fixed
/// number of copies, each phase stops after <see cref="MaxRequestsPerPhase"/> requests at most, every request has
/// a timeout, and the whole run has an overall timeout.</summary>
public sealed record LoadOptions
{
    public const int DefaultFullMemberCount = 1_000_000;
    public const int SmokeMemberCount = 10_000;
    public const int MaxRepetitions = 20;

    /// <summary>The smoke's open-model rate, and the first of its capacity search's two steps.</summary>
    public const double SmokeRate = 20;

    /// <summary>The capacity mode's default payload: 10,000 members, a size a service answers many times a second.</summary>
    public const int CapacityMemberCount = 10_000;

    /// <summary>A server that is already running (loopback only, unless <see cref="Remote"/>); null starts the Release API on a free port.</summary>
    public Uri? Url { get; init; }

    public bool Remote { get; init; }

    /// <summary>Where to write the run's latencies as an HdrHistogram log for <c>merge</c>; null writes none.</summary>
    public string? HistogramLog { get; init; }

    /// <summary>Scenario name prefixes to run (e.g. <c>download</c>, <c>upload-msgpack</c>); empty runs all.</summary>
    public IReadOnlyList<string> ScenarioFilters { get; init; } = [];

    public IReadOnlyList<int> Copies { get; init; } = [1, 4];

    public IReadOnlyList<int> MemberCounts { get; init; } = [10_000, DefaultFullMemberCount];

    public TimeSpan WarmUp { get; init; } = TimeSpan.FromSeconds(3);

    public TimeSpan Duration { get; init; } = TimeSpan.FromSeconds(10);

    /// <summary>Longest a single request may take, body included; a request still going then counts as failed.</summary>
    public TimeSpan RequestTimeout { get; init; } = TimeSpan.FromSeconds(120);

    /// <summary>Cap on requests started in one warm-up or measured phase, all copies together.</summary>
    public int MaxRequestsPerPhase { get; init; } = 50_000;

    /// <summary>How many times each scenario and copies is measured, each time on a fresh server process when the runner starts
    /// the server. One server process decides the speed of its JIT-compiled code for its whole life, so one process's
    /// figure is one draw; the reports take the median of the repetitions and show their spread.</summary>
    public int Repetitions { get; init; } = 1;

    /// <summary>The whole run stops after this; null means the planned time plus a margin.</summary>
    public TimeSpan? OverallTimeout { get; init; }

    /// <summary>Where report folders go; null means <c>reports/</c> at the repository root.</summary>
    public string? ReportsDirectory { get; init; }

    /// <summary>Keep one started server for the whole run instead of a fresh one per scenario and copies. A fresh server keeps
    /// one scenario's heap growth out of the next one's working set and GC figures.</summary>
    public bool SharedServer { get; init; }

    public IReadOnlyDictionary<string, string> ServerEnvironment { get; init; } = new Dictionary<string, string>();

    /// <summary>The server's CPUs when split; null: the first half of the machine's (see <see cref="CpuPlan"/>).</summary>
    public CpuSet? ServerCpus { get; init; }

    /// <summary>The load client's CPUs when split; null: the CPUs the server does not get.</summary>
    public CpuSet? ClientCpus { get; init; }

    /// <summary>The CPU layouts to measure every scenario under; empty: split on two CPUs or more, else shared.</summary>
    public IReadOnlyList<CpuLayout> CpuLayouts { get; init; } = [];

    public bool NoBuild { get; init; }

    /// <summary>Start the scale-out topology of deploy/ (replicas behind HAProxy, <see cref="HAProxyTopology"/>) and measure
    /// every scenario and load both through HAProxy and straight from replica 1, interleaved (<see cref="ScaleOut.HAProxyComparison"/>).</summary>
    public bool ThroughHAProxy { get; init; }

    /// <summary>The checkout whose src/Api the runner builds and starts (--api-from), or null for this one.</summary>
    public string? ApiFrom { get; init; }

    /// <summary>The log-cost mode (issue 28, <see cref="LogCost.LogCostRun"/>).</summary>
    public bool LogCost { get; init; }

    /// <summary>Log-cost mode: how long the mixed load runs on each server whose log volume is counted.</summary>
    public TimeSpan LogVolumeDuration { get; init; } = TimeSpan.FromMinutes(5);

    /// <summary>CI mode: small payloads, short scenarios, one copy, and a non-zero exit on any failure.</summary>
    public bool Smoke { get; init; }

    public bool ShowHelp { get; init; }

    /// <summary>Open model: arrival rates in requests per second, one measurement per value, instead of <see cref="Copies"/>.</summary>
    public IReadOnlyList<double> Rates { get; init; } = [];

    /// <summary>The capacity mode: step the arrival rate up per scenario until it misses (see <see cref="CapacitySearch"/>).</summary>
    public bool Capacity { get; init; }

    public double RateStart { get; init; } = 50;

    /// <summary>Capacity mode: each step's rate is the last one's times this.</summary>
    public double RateFactor { get; init; } = 1.5;

    public double RateMax { get; init; } = 5_000;

    /// <summary>Capacity mode: how many times a rate is run before its miss ends the search; it passes when one run does.</summary>
    public int StepAttempts { get; init; } = 2;

    /// <summary>Capacity mode: the p99 latency a step must stay under.</summary>
    public TimeSpan P99Bound { get; init; } = TimeSpan.FromMilliseconds(100);

    /// <summary>The name of the run's file under docs/results/; null picks it by mode (<see cref="ResultsFile"/>).</summary>
    public string? ResultsPath { get; init; }

    public bool NoResults { get; init; }

    public string Mode => Capacity ? "capacity" : Rates.Count > 0 ? "open model" : "closed model";

    /// <summary>The <c>--help</c> text, generated by System.CommandLine from <see cref="LoadCommandLine"/>: every option with its default.</summary>
    public static string Usage => LoadCommandLine.HelpText();

    public static LoadOptions Parse(IReadOnlyList<string> args) => LoadCommandLine.Parse(args);

    /// <summary>Checks what one option cannot check alone; throws <see cref="ArgumentException"/> with the first refusal.</summary>
    internal LoadOptions Validated(bool capacityCountGiven)
    {
        (bool Refused, string Message)[] checks =
        [
            (Url is not null && !Remote && !LoadCommandLine.IsLoopback(Url), $"--url: '{Url?.Host}' is not a loopback address; the load runner only targets this machine (127.0.0.1, localhost, [::1]) unless --remote is given."),
            (ApiFrom is not null && (Url is not null || LogCost), "--api-from chooses the API a load or capacity run starts: leave out --url and --log-cost."),
            (ApiFrom is not null && !File.Exists(Path.Combine(ApiFrom, "src", "Api", "WebSerialization.Api.csproj")), $"--api-from: '{ApiFrom}' is not a checkout of this repository (no src/Api/WebSerialization.Api.csproj)."),
            (Remote && Url is null, "--remote applies to --url: the server the runner starts is always on this machine."),
            (LogCost && HistogramLog is not null, "--histogram-log applies to load runs, not to --log-cost, whose report is its own."),
            (Url is not null && ServerEnvironment.Count > 0, "--server-env applies to a server the runner starts, not to --url."),
            (Url is not null && (ServerCpus is not null || CpuLayouts.Count > 0), "--server-cpus and --cpu-layout place a server the runner starts, not one at --url (--client-cpus still places the runner)."),
            (Smoke && Repetitions > 1, "--repeat does not apply to --smoke: the smoke measures each scenario once."),
            (LogCost && (Url is not null || Smoke || Capacity || Rates.Count > 0 || CpuLayouts.Contains(CpuLayout.Shared)),
                "--log-cost starts its own servers and runs its own load on split CPUs: leave out --url, --smoke, --capacity, --rate and --cpu-layout shared."),
            (Capacity && Rates.Count > 0, "--capacity finds the rate itself: leave out --rate (set --rate-start, --rate-factor, --rate-max)."),
            (ThroughHAProxy && Url is not null, "--through-haproxy starts its own replicas and HAProxy: leave out --url."),
            (ThroughHAProxy && (Smoke || Capacity || LogCost), "--through-haproxy compares closed- or open-model runs of the same scenario both ways: leave out --smoke, --capacity and --log-cost."),
            (ThroughHAProxy && CpuLayouts.Count > 1, "--through-haproxy compares two routes under one CPU layout: give --cpu-layout split or shared, not both."),
            (ThroughHAProxy && HistogramLog is not null, "--histogram-log merges runs against one server; --through-haproxy measures two routes: leave it out."),
            (ThroughHAProxy && ScenarioFilters.Any(SelectsGrpc), "--through-haproxy: deploy/haproxy/haproxy.cfg proxies the HTTP port, not gRPC's: leave the grpc scenarios out of --scenarios."),
            (RateMax < RateStart, string.Create(CultureInfo.InvariantCulture, $"--rate-max ({RateMax}) is below --rate-start ({RateStart}).")),
        ];
        return checks.FirstOrDefault(check => check.Refused) is { Refused: true } refused ? throw new ArgumentException(refused.Message)
            : Capacity && !capacityCountGiven && !Smoke ? this with { MemberCounts = [CapacityMemberCount] }
            : this;
    }

    // A --scenarios prefix that selects gRPC scenarios (grpc-unary-..., grpc-stream-...).
    private static bool SelectsGrpc(string filter) =>
        filter.StartsWith("grpc", StringComparison.OrdinalIgnoreCase) || "grpc".StartsWith(filter, StringComparison.OrdinalIgnoreCase);

    /// <summary>The smoke's settings, which its command line may not change except where named.</summary>
    internal static LoadOptions SmokeDefaults { get; } = new()
    {
        Smoke = true,
        Copies = [1],
        MemberCounts = [SmokeMemberCount, DownloadTargets.FullMemberCount],
        WarmUp = TimeSpan.FromSeconds(0.5),
        Duration = TimeSpan.FromSeconds(2),
        RequestTimeout = TimeSpan.FromSeconds(30),
        OverallTimeout = TimeSpan.FromMinutes(3),
        SharedServer = true,
        RateStart = SmokeRate,
        RateFactor = 2,
        RateMax = 2 * SmokeRate,
        P99Bound = TimeSpan.FromSeconds(5),
    };
}
