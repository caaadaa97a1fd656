using System.Globalization;
using System.Net;

namespace WebSerialization.Load;

/// <summary>
/// What one load run does. Every run is bounded: each scenario warms up and runs for a fixed time with a fixed
/// number of copies, each phase stops after <see cref="MaxRequestsPerPhase"/> requests at most, every request has
/// a timeout, and the whole run has an overall timeout.
/// </summary>
public sealed record LoadOptions
{
    public const int DefaultFullMemberCount = 1_000_000;
    public const int SmokeMemberCount = 10_000;
    public const int MaxRepetitions = 20;

    /// <summary>The smoke's open-model rate, and the first of its capacity search's two steps.</summary>
    public const double SmokeRate = 20;

    /// <summary>A server that is already running (loopback only); null starts the Release API on a free port.</summary>
    public Uri? Url { get; init; }

    /// <summary>Scenario name prefixes to run (e.g. <c>download</c>, <c>upload-msgpack</c>); empty runs all.</summary>
    public IReadOnlyList<string> ScenarioFilters { get; init; } = [];

    /// <summary>Concurrent copies, one measurement per value (NBomber's KeepConstant copies).</summary>
    public IReadOnlyList<int> Copies { get; init; } = [1, 4];

    /// <summary>Members per payload, one measurement per value.</summary>
    public IReadOnlyList<int> MemberCounts { get; init; } = [10_000, DefaultFullMemberCount];

    public TimeSpan WarmUp { get; init; } = TimeSpan.FromSeconds(3);

    public TimeSpan Duration { get; init; } = TimeSpan.FromSeconds(10);

    /// <summary>Longest a single request may take, body included; a request still going then counts as failed.</summary>
    public TimeSpan RequestTimeout { get; init; } = TimeSpan.FromSeconds(120);

    /// <summary>Cap on requests started in one warm-up or measured phase, all copies together.</summary>
    public int MaxRequestsPerPhase { get; init; } = 50_000;

    /// <summary>
    /// How many times each scenario and copies is measured, each time on a fresh server process when the runner starts
    /// the server (with <see cref="SharedServer"/> or <see cref="Url"/> on the same one). One server process decides
    /// the speed of its JIT-compiled code for its whole life, so one process's figure is one draw; the reports take the
    /// median of the repetitions and show their spread.
    /// </summary>
    public int Repetitions { get; init; } = 1;

    /// <summary>The whole run stops after this; null means the planned time plus a margin.</summary>
    public TimeSpan? OverallTimeout { get; init; }

    /// <summary>Where report folders go; null means <c>reports/</c> at the repository root.</summary>
    public string? ReportsDirectory { get; init; }

    /// <summary>
    /// Keep one started server for the whole run instead of a fresh one per scenario and copies. A fresh server keeps
    /// one scenario's heap growth out of the next one's working set and GC figures.
    /// </summary>
    public bool SharedServer { get; init; }

    /// <summary>Extra environment variables for a server the runner starts (experiments: chunk size, GC settings).</summary>
    public IReadOnlyDictionary<string, string> ServerEnvironment { get; init; } = new Dictionary<string, string>();

    /// <summary>Skip building the API (use the Release build already there).</summary>
    public bool NoBuild { get; init; }

    /// <summary>CI mode: small payloads, short scenarios, one copy, and a non-zero exit on any failure.</summary>
    public bool Smoke { get; init; }

    public bool ShowHelp { get; init; }

    /// <summary>Open model: arrival rates in requests per second, one measurement per value, instead of <see cref="Copies"/>.</summary>
    public IReadOnlyList<double> Rates { get; init; } = [];

    /// <summary>The capacity mode: step the arrival rate up per scenario until it misses (see <see cref="CapacitySearch"/>).</summary>
    public bool Capacity { get; init; }

    /// <summary>Capacity mode: the first rate tried, in requests per second.</summary>
    public double RateStart { get; init; } = 50;

    /// <summary>Capacity mode: each step's rate is the last one's times this.</summary>
    public double RateFactor { get; init; } = 1.5;

    /// <summary>Capacity mode: the highest rate tried.</summary>
    public double RateMax { get; init; } = 5_000;

    /// <summary>Capacity mode: the p99 latency a step must stay under.</summary>
    public TimeSpan P99Bound { get; init; } = TimeSpan.FromMilliseconds(100);

    /// <summary>
    /// Where the run's results go as generated Markdown in the repository (docs/results/); null picks the file by
    /// mode (<see cref="ResultsFile"/>). Never written by the smoke or with <see cref="NoResults"/>.
    /// </summary>
    public string? ResultsPath { get; init; }

    /// <summary>Do not write docs/results/.</summary>
    public bool NoResults { get; init; }

    /// <summary>The load model of the run, for the reports.</summary>
    public string Mode => Capacity ? "capacity" : Rates.Count > 0 ? "open model" : "closed model";

    public const string Usage = """
        WebSerialization load runner: closed-model load (N copies, each looping requests) against the organization API.

        dotnet run -c Release --project tests/Load -- [options]

          --url URL              Target a server that is already running (loopback addresses only). Default: build the
                                 API in Release and, for each scenario, copies and repetition, start it on a free port with
                                 Diagnostics__RuntimeEndpoint=true, wait for /healthz, run, and stop it.
          --shared-server        Start one server for the whole run instead of one per scenario, copies and
                                 repetition (--repeat then reuses it).
          --server-env NAME=VAL  An environment variable for the started server (repeatable), e.g.
                                 Organization__ChunkSize=262144 or DOTNET_gcServer=0.
          --scenarios LIST       Comma-separated scenario name prefixes: download, upload, convert, download-json,
                                 upload-msgpack, convert-json-to-binary... Default: all.
          --copies LIST          Concurrent copies, comma-separated (default 1,4).
          --count LIST           Members per payload, comma-separated (default 10000,1000000). A started server gets
                                 Organization__MemberCount = the largest.
          --warmup SECONDS       Warm-up per scenario, not measured (default 3).
          --duration SECONDS     Measured time per scenario (default 10). Requests in flight at the end finish.
          --request-timeout S    Timeout of one request, body included (default 120).
          --max-requests N       Cap on requests per phase (default 50000).
          --repeat N             Measure every scenario and copies N times (1 to 20, default 1), each time on a fresh
                                 server process: one process's JIT settles on code that can be faster or slower than
                                 the next one's, so one process is one draw. Repetitions are interleaved (every
                                 scenario once, then every scenario again). The summary, the charts and the targets
                                 take the median over the repetitions of each figure (OK and Failed are totals; peak
                                 working set: the repetition that raised it most) and show the p50 range; each
                                 scenario's report lists every repetition. With --url or --shared-server the
                                 repetitions reuse that one server.
          --timeout MINUTES      Overall timeout (default: the planned time, repetitions and server starts included,
                                 plus 5 minutes).
          --reports DIR          Report folder root (default: reports/ at the repository root).
          --no-build             Do not build the API first.
          --smoke                CI smoke: every scenario at 10,000 members plus the JSON download of 1,000,000, 1 copy,
                                 0.5 s warm-up, 2 s per scenario, one shared server, 3 minute timeout, one repetition
                                 (--repeat is refused); exits 1 on any failed or empty response, a scenario that cannot
                                 run, > 4 MB allocated per request, or the million-member JSON download over 0.55 MB.
                                 Skipped scenarios (endpoint absent) do not fail it.
          --help                 This text.

        Exit codes: 0 done; 1 a request failed, a scenario could not run, or (smoke) an allocation gate failed;
        2 bad options, the server did not start, or the overall timeout fired; 130 interrupted.
        """;

    /// <summary>Parses the command line; throws <see cref="ArgumentException"/> with a readable message.</summary>
    public static LoadOptions Parse(IReadOnlyList<string> args)
    {
        ArgumentNullException.ThrowIfNull(args);
        var smoke = args.Contains("--smoke", StringComparer.Ordinal);
        var options = smoke
            ? new LoadOptions
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
            }
            : new LoadOptions();

        for (var i = 0; i < args.Count; i++)
        {
            var name = args[i];
            options = name switch
            {
                "--smoke" => options,
                "--help" or "-h" or "-?" => options with { ShowHelp = true },
                "--no-build" => options with { NoBuild = true },
                "--shared-server" => options with { SharedServer = true },
                "--server-env" => options with { ServerEnvironment = WithVariable(options.ServerEnvironment, Value(args, ref i)) },
                "--url" => options with { Url = ParseLoopbackUrl(Value(args, ref i)) },
                "--scenarios" => options with { ScenarioFilters = List(Value(args, ref i)) },
                "--copies" => options with { Copies = IntegerList(name, Value(args, ref i), 1, 64) },
                "--count" => options with { MemberCounts = IntegerList(name, Value(args, ref i), 0, 2_000_000) },
                "--warmup" => options with { WarmUp = Seconds(name, Value(args, ref i), 0, 300) },
                "--duration" => options with { Duration = Seconds(name, Value(args, ref i), 0.1, 600) },
                "--request-timeout" => options with { RequestTimeout = Seconds(name, Value(args, ref i), 1, 900) },
                "--max-requests" => options with { MaxRequestsPerPhase = Integer(name, Value(args, ref i), 1, 10_000_000) },
                "--repeat" when smoke => throw new ArgumentException("--repeat does not apply to --smoke: the smoke measures each scenario once."),
                "--repeat" => options with { Repetitions = Integer(name, Value(args, ref i), 1, MaxRepetitions) },
                "--rate" => options with { Rates = NumberList(name, Value(args, ref i), 0.1, 100_000) },
                "--capacity" => options with { Capacity = true },
                "--rate-start" => options with { RateStart = Number(name, Value(args, ref i), 0.1, 100_000) },
                "--rate-factor" => options with { RateFactor = Number(name, Value(args, ref i), 1.05, 10) },
                "--rate-max" => options with { RateMax = Number(name, Value(args, ref i), 0.1, 100_000) },
                "--p99-bound" => options with { P99Bound = TimeSpan.FromMilliseconds(Number(name, Value(args, ref i), 1, 600_000)) },
                "--results" => options with { ResultsPath = Value(args, ref i) },
                "--no-results" => options with { NoResults = true },
                "--timeout" => options with { OverallTimeout = TimeSpan.FromMinutes(Number(name, Value(args, ref i), 0.1, 240)) },
                "--reports" => options with { ReportsDirectory = Value(args, ref i) },
                _ => throw new ArgumentException($"Unknown option '{name}'. Use --help."),
            };
        }

        if (options.Url is not null && options.ServerEnvironment.Count > 0)
        {
            throw new ArgumentException("--server-env applies to a server the runner starts, not to --url.");
        }

        if (options.Capacity && options.Rates.Count > 0)
        {
            throw new ArgumentException("--capacity finds the rate itself: leave out --rate (set --rate-start, --rate-factor, --rate-max).");
        }

        if (options.RateMax < options.RateStart)
        {
            throw new ArgumentException($"--rate-max ({options.RateMax}) is below --rate-start ({options.RateStart}).");
        }

        return options.Capacity && !args.Contains("--count", StringComparer.Ordinal) && !smoke
            ? options with { MemberCounts = [CapacityMemberCount] }
            : options;
    }

    /// <summary>The capacity mode's default payload: 10,000 members, a size a service answers many times a second.</summary>
    public const int CapacityMemberCount = 10_000;

    private static double[] NumberList(string name, string value, double min, double max)
    {
        var items = List(value);
        return items.Length == 0
            ? throw new ArgumentException($"{name} needs at least one value.")
            : [.. items.Select(item => Number(name, item, min, max)).Distinct()];
    }

    private static Dictionary<string, string> WithVariable(IReadOnlyDictionary<string, string> variables, string assignment)
    {
        var equals = assignment.IndexOf('=', StringComparison.Ordinal);
        if (equals <= 0)
        {
            throw new ArgumentException($"--server-env: '{assignment}' is not NAME=VALUE.");
        }

        return new Dictionary<string, string>(variables, StringComparer.Ordinal) { [assignment[..equals]] = assignment[(equals + 1)..] };
    }

    private static string Value(IReadOnlyList<string> args, ref int index)
    {
        if (index + 1 >= args.Count || args[index + 1].StartsWith("--", StringComparison.Ordinal))
        {
            throw new ArgumentException($"Option '{args[index]}' needs a value.");
        }

        index++;
        return args[index];
    }

    private static string[] List(string value) =>
        value.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    private static int[] IntegerList(string name, string value, int min, int max)
    {
        var items = List(value);
        if (items.Length == 0)
        {
            throw new ArgumentException($"{name} needs at least one value.");
        }

        return [.. items.Select(item => Integer(name, item, min, max)).Distinct()];
    }

    // One value: "1,2" is refused here rather than read as a list whose first item wins.
    private static int Integer(string name, string value, int min, int max) =>
        int.TryParse(value.Replace("_", string.Empty, StringComparison.Ordinal), NumberStyles.None, CultureInfo.InvariantCulture, out var number) && number >= min && number <= max
            ? number
            : throw new ArgumentException($"{name}: '{value}' is not a whole number from {min} to {max}.");

    private static double Number(string name, string value, double min, double max) =>
        double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out var number) && number >= min && number <= max
            ? number
            : throw new ArgumentException($"{name}: '{value}' is not a number from {min} to {max}.");

    private static TimeSpan Seconds(string name, string value, double min, double max) =>
        TimeSpan.FromSeconds(Number(name, value, min, max));

    // The load runner only ever sends traffic to this machine.
    private static Uri ParseLoopbackUrl(string value)
    {
        if (!Uri.TryCreate(value, UriKind.Absolute, out var url) || (url.Scheme != Uri.UriSchemeHttp && url.Scheme != Uri.UriSchemeHttps))
        {
            throw new ArgumentException($"--url: '{value}' is not an http(s) URL.");
        }

        var loopback = url.IsLoopback || (IPAddress.TryParse(url.Host.Trim('[', ']'), out var address) && IPAddress.IsLoopback(address));
        return loopback
            ? new Uri(url.GetLeftPart(UriPartial.Authority))
            : throw new ArgumentException($"--url: '{url.Host}' is not a loopback address; the load runner only targets this machine (127.0.0.1, localhost, [::1]).");
    }
}
