using System.CommandLine;
using System.CommandLine.Help;
using System.CommandLine.Parsing;
using System.Net;
using WebSerialization.Load.Cpus;
using WebSerialization.Tests.Processes;

namespace WebSerialization.Load.Running;

/// <summary>The runner's command line, declared with System.CommandLine: every option with its description and default, which
/// <c>--help</c> lists; a bad value is refused, with the option and the accepted range named, before anything starts.</summary>
public static class LoadCommandLine
{
    private static readonly LoadOptions Defaults = new();

    private static readonly Option<Uri?> Url = Valued<Uri?>("--url", "URL", "Target a server that is already running (loopback addresses only, unless --remote). Default: build the API in Release and, for each "
        + "scenario, load and repetition, start it on a free 127.0.0.1 port with Metrics__Enabled=true.", HttpUrl);

    private static readonly Option<bool> Remote = Flag("--remote", "Let --url name another machine, e.g. the load balancer in front of replicas when one runner per client machine makes the load "
        + "(each with --histogram-log, merged after).");

    private static readonly Option<string?> HistogramLogOption = Valued<string?>("--histogram-log", "FILE", "Also write the run's latencies as an HdrHistogram log: one histogram per scenario and load, with the counts a merge adds up. "
        + "'merge FILE FILE...' combines the logs of several runners into one report (merge --help).", WritableFile);

    private static readonly Option<bool> SharedServer = Flag("--shared-server", "Start one server for the whole run instead of one per scenario, load and repetition.");

    private static readonly Option<string[]> ServerEnvironment = new("--server-env")
    {
        Description = "An environment variable for the started server (repeatable), e.g. Organization__ChunkSize=262144 or DOTNET_gcServer=0.",
        HelpName = "NAME=VALUE",
        CustomParser = result => Checked(result, () => Variables(result.Tokens.Select(token => token.Value)).Select(pair => $"{pair.Key}={pair.Value}").ToArray()),
    };

    private static readonly Option<CpuSet?> ServerCpus = Valued<CpuSet?>("--server-cpus", "LIST", "The CPUs of the server the runner starts, when split (see --cpu-layout), as taskset writes them: 0, 0-3, 0,2. "
        + "It is started under taskset -c with DOTNET_PROCESSOR_COUNT set to their number. Default: the first half of the physical cores "
        + "the runner may use, rounded up (on 2 CPUs: CPU 0), or those --client-cpus leaves.", value => CpuSet.Parse(value, "--server-cpus"));

    private static readonly Option<CpuSet?> ClientCpus = Valued<CpuSet?>("--client-cpus", "LIST", "The CPUs the runner itself (the load client) runs on when split; every thread is pinned (taskset -a). Default: those the server does not get "
        + "(on 2 CPUs: CPU 1). With --url, pins the runner only.", value => CpuSet.Parse(value, "--client-cpus"));

    private static readonly Option<CpuLayout[]> CpuLayoutOption = Valued("--cpu-layout", "LIST", "split: the server on --server-cpus and the load client on --client-cpus, disjoint; shared: both anywhere, competing for every CPU. "
        + "split,shared measures every scenario and load under both, one after the other, and the summary compares them (p50, requests/s, capacity). "
        + "Default: split on a machine with 2 CPUs or more, else shared.", Layouts);

    private static readonly Option<string[]> Scenarios = new("--scenarios")
    {
        Description = "Comma-separated scenario name prefixes: download, upload, convert, download-json, upload-msgpack, "
            + "convert-json-to-binary, grpc (grpc-unary, grpc-stream), baseline (baseline-download, baseline-upload: the MVC "
            + "stock formatters)... Default: all but the baseline, which runs only when named; "
            + "with --capacity: download,upload.",
        HelpName = "LIST",
        CustomParser = result => List(Last(result)),
    };

    private static readonly Option<int[]> Copies = WholeList("--copies", "Closed model (NBomber's KeepConstant): concurrent copies, each sending its next request when the last ends; comma-separated, one measurement per value.", Defaults.Copies, 1, 64);

    private static readonly Option<double[]> Rates = Valued("--rate", "LIST", "Open model (NBomber's Inject) instead of copies: requests per second, comma-separated, one measurement per value. Requests are sent "
        + "on schedule whatever the server does; latency runs from each request's intended start (no coordinated omission); late and dropped requests are counted.",
        value => ListOf("--rate", value, item => Number("--rate", item, 0.1, 100_000)));

    private static readonly Option<bool> Capacity = Flag("--capacity", "Capacity mode: per scenario (default: downloads and uploads of 10,000 members, every format), open-model steps from --rate-start, "
        + "times --rate-factor each, until a step has a failed or dropped request or a p99 over --p99-bound; reports the highest rate sustained, with a table and a chart.");

    private static readonly Option<double> RateStart = NumberOption("--rate-start", "Capacity mode: the first rate, requests per second.", "PER_SECOND", Defaults.RateStart, 0.1, 100_000);

    private static readonly Option<double> RateFactor = NumberOption("--rate-factor", "Capacity mode: each step's rate over the last one's.", "FACTOR", Defaults.RateFactor, 1.05, 10);

    private static readonly Option<double> RateMax = NumberOption("--rate-max", "Capacity mode: the highest rate tried, requests per second.", "PER_SECOND", Defaults.RateMax, 0.1, 100_000);

    private static readonly Option<int> StepAttempts = Whole("--step-attempts", "Capacity mode: how many times a rate is run before a miss ends the search (one 5 s step's p99 moves with the machine's other work).", Defaults.StepAttempts, 1, 10);

    private static readonly Option<double> P99Bound = NumberOption("--p99-bound", "Capacity mode: the p99 latency a step must stay under, in milliseconds.", "MS", Defaults.P99Bound.TotalMilliseconds, 1, 600_000);

    private static readonly Option<int[]> Count = WholeList("--count", "Members per payload, comma-separated (with --capacity: 10000). A started server gets Organization__MemberCount = the largest.", Defaults.MemberCounts, 0, 2_000_000);

    private static readonly Option<double> WarmUp = Seconds("--warmup", "Warm-up per scenario, closed model, not measured, in seconds.", Defaults.WarmUp, 0, 300);

    private static readonly Option<double> Duration = Seconds("--duration", "Measured time per scenario (per step with --capacity), in seconds. Requests in flight at the end finish.", Defaults.Duration, 0.1, 600);

    private static readonly Option<double> RequestTimeout = Seconds("--request-timeout", "Timeout of one request, body included, in seconds.", Defaults.RequestTimeout, 1, 900);

    private static readonly Option<int> MaxRequests = Whole("--max-requests", "Cap on requests per phase.", Defaults.MaxRequestsPerPhase, 1, 10_000_000);

    private static readonly Option<int> Repeat = Whole("--repeat", "Measure every scenario and load N times (1 to 20), each time on a fresh server process: one process's JIT settles on code that can be "
        + "faster or slower than the next one's, so one process is one draw. Interleaved (every scenario once, then again); the reports take the median of each figure "
        + "(OK and Failed: totals; peak working set: the run that raised it most) and show the p50 range. With --url or --shared-server they reuse that server.", Defaults.Repetitions, 1, LoadOptions.MaxRepetitions);

    private static readonly Option<double?> OverallTimeout = Valued<double?>("--timeout", "MINUTES", "Overall timeout in minutes. Default: the planned time, repetitions and server starts included, plus 5 minutes.",
        value => Number("--timeout", value, 0.1, 240));

    private static readonly Option<string?> Reports = new("--reports") { Description = "Report folder root (default: reports/ at the repository root, git-ignored).", HelpName = "DIR" };

    private static readonly Option<string?> Results = new("--results")
    {
        Description = "The name of the generated Markdown the run's results go to, docs/results/NAME.md with its charts beside it (default by mode: capacity, "
            + "open-model, downloads, uploads or load). The smoke never writes it.",
        HelpName = "NAME",
    };

    private static readonly Option<bool> NoResults = Flag("--no-results", "Do not write docs/results/ (the reports under reports/ are written as ever).");

    private static readonly Option<bool> LogCostOption = Flag("--log-cost", "Log-cost mode: three servers side by side on the server's CPUs (Production defaults, logging off, access log on); --repeat rounds "
        + "(default 6) of --duration s of 1,000-member binary downloads against each in turn, with server CPU per request and the bytes each logged; "
        + "then --log-volume-duration of mixed load counting log bytes. Writes docs/results/log-cost.md.");

    private static readonly Option<double> LogVolumeDuration = Seconds("--log-volume-duration", "Log-cost mode: the mixed load on each server, in seconds (the issue's figure is per 5 minutes).", Defaults.LogVolumeDuration, 1, 3600);

    private static readonly Option<bool> ThroughHAProxy = Flag("--through-haproxy", $"Start deploy/'s scale-out topology, {HAProxyTopology.ReplicaCount} replicas of the API behind Debian's HAProxy (haproxy on PATH, "
        + "started with deploy/haproxy/haproxy.cfg), once for the run, and measure every scenario and load both straight from replica 1 and through HAProxy, one after the other "
        + "(which first alternates with each --repeat). The replicas and HAProxy run on the server's CPUs. The main figures are straight from the replica; a section compares "
        + "the two routes, and the target is a million-member download through HAProxy within 1.2x of straight (p50). Default scenarios: download; "
        + "results go to docs/results/scale-out.md. Not with --url, --capacity, --smoke, --log-cost, --histogram-log or the gRPC scenarios.");

    private static readonly Option<bool> NoBuild = Flag("--no-build", "Do not build the API first (use the Release build already there).");

    private static readonly Option<string?> ApiFrom = new("--api-from")
    {
        Description = "Build and start the API of another checkout of this repository (e.g. a git worktree of an older commit), to measure it with this runner; "
            + "results still go to this checkout's docs/results, and their header names that checkout's commit.",
        HelpName = "DIR",
    };

    private static readonly Option<bool> Smoke = Flag("--smoke", "CI smoke: every scenario at 10,000 members plus the JSON download of 1,000,000, closed model with 1 copy, then one open-model "
        + "scenario at 20 requests/s and a two-step capacity search (20 and 40/s); 0.5 s warm-up, 2 s per phase, one shared server, 3 minute timeout. "
        + "Exits 1 on any failed or empty response, a scenario that cannot run, > 4 MB allocated per request, or the million-member JSON download over 0.15 MB. "
        + "Never writes docs/results/.");

    /// <summary>Parses <paramref name="args"/>; throws <see cref="ArgumentException"/> with every error, one a line.</summary>
    public static LoadOptions Parse(IReadOnlyList<string> args)
    {
        var result = Command().Parse(args);
        if (result.Errors.Count > 0)
            throw new ArgumentException(string.Join(Environment.NewLine, result.Errors.Select(error => error.Message).Distinct()));

        var smoke = result.GetValue(Smoke);
        var basis = smoke ? LoadOptions.SmokeDefaults : Defaults;
        T Value<T>(Option<T> option, T fallback) => result.GetResult(option) is { Implicit: false } ? result.GetValue(option)! : fallback;
        var options = basis with
        {
            ShowHelp = result.Action is HelpAction,
            Url = result.GetValue(Url),
            Remote = result.GetValue(Remote),
            HistogramLog = result.GetValue(HistogramLogOption),
            SharedServer = basis.SharedServer || result.GetValue(SharedServer),
            ServerEnvironment = Variables(result.GetValue(ServerEnvironment) ?? []),
            ScenarioFilters = result.GetResult(Scenarios) is { Implicit: false } ? result.GetValue(Scenarios) ?? []
                : result.GetValue(Capacity) && !smoke ? ["download", "upload"]
                : result.GetValue(ThroughHAProxy) ? ["download"] : [],
            Copies = Value(Copies, [.. basis.Copies]),
            MemberCounts = Value(Count, [.. basis.MemberCounts]),
            Rates = result.GetValue(Rates) ?? [],
            Capacity = result.GetValue(Capacity),
            RateStart = Value(RateStart, basis.RateStart),
            RateFactor = Value(RateFactor, basis.RateFactor),
            RateMax = Value(RateMax, basis.RateMax),
            StepAttempts = Value(StepAttempts, basis.StepAttempts),
            P99Bound = TimeSpan.FromMilliseconds(Value(P99Bound, basis.P99Bound.TotalMilliseconds)),
            WarmUp = TimeSpan.FromSeconds(Value(WarmUp, basis.WarmUp.TotalSeconds)),
            Duration = TimeSpan.FromSeconds(Value(Duration, basis.Duration.TotalSeconds)),
            RequestTimeout = TimeSpan.FromSeconds(Value(RequestTimeout, basis.RequestTimeout.TotalSeconds)),
            MaxRequestsPerPhase = Value(MaxRequests, basis.MaxRequestsPerPhase),
            Repetitions = Value(Repeat, basis.Repetitions),
            OverallTimeout = result.GetValue(OverallTimeout) is { } minutes ? TimeSpan.FromMinutes(minutes) : basis.OverallTimeout,
            ReportsDirectory = result.GetValue(Reports),
            ResultsPath = result.GetValue(Results),
            NoResults = result.GetValue(NoResults),
            NoBuild = result.GetValue(NoBuild),
            ThroughHAProxy = result.GetValue(ThroughHAProxy),
            ApiFrom = result.GetValue(ApiFrom) is { } apiFrom ? Path.GetFullPath(apiFrom) : null,
            ServerCpus = result.GetValue(ServerCpus),
            ClientCpus = result.GetValue(ClientCpus),
            CpuLayouts = result.GetValue(CpuLayoutOption) ?? [],
            LogCost = result.GetValue(LogCostOption),
            LogVolumeDuration = TimeSpan.FromSeconds(Value(LogVolumeDuration, basis.LogVolumeDuration.TotalSeconds)),
        };
        return options.Validated(capacityCountGiven: result.GetResult(Count) is { Implicit: false });
    }

    /// <summary>The <c>--help</c> text.</summary>
    public static string HelpText()
    {
        using var output = new StringWriter(CultureInfo.InvariantCulture);
        Command().Parse(["--help"]).Invoke(new InvocationConfiguration { Output = output });
        return output.ToString();
    }

    private static RootCommand Command()
    {
        var command = Root();

        // The runner has no version of its own to print, and an option it ignored would start a whole run.
        foreach (var version in command.Options.OfType<VersionOption>().ToArray())
            command.Options.Remove(version);

        return command;
    }

    private static RootCommand Root() => new(
        """
        WebSerialization load runner, in NBomber's vocabulary, against the organization API. Three load models:
          closed (default)  --copies N: N copies each loop requests (KeepConstant)
          open              --rate R: R requests per second whatever the server does (Inject)
          capacity          --capacity: open-model steps up until p99 crosses --p99-bound or a request fails
        Reports go to reports/ (git-ignored); a non-smoke run also writes its results to docs/results/.
        Exit codes: 0 done; 1 a request failed, a scenario could not run, or (smoke) a gate failed;
        2 bad options, the server did not start, or the overall timeout fired; 130 interrupted.
        'merge FILE FILE...' merges the --histogram-log files of several runners into one report (merge --help).
        """)
    {
        Url, SharedServer, ServerEnvironment, ServerCpus, ClientCpus, CpuLayoutOption, Scenarios, Copies, Rates, Capacity, RateStart, RateFactor, RateMax, StepAttempts, P99Bound, Count,
        WarmUp, Duration, RequestTimeout, MaxRequests, Repeat, OverallTimeout, Reports, Results, NoResults, NoBuild, ApiFrom, Smoke, LogCostOption, LogVolumeDuration,
        Remote, HistogramLogOption, ThroughHAProxy,
    };

    private static Option<bool> Flag(string name, string description) => new(name) { Description = description };

    private static Option<T> Valued<T>(string name, string helpName, string description, Func<string, T> parse) =>
        new(name) { Description = description, HelpName = helpName, CustomParser = Checked(parse) };

    private static Option<T> Valued<T>(string name, string helpName, string description, Func<string, T> parse, Func<T> fallback)
    {
        var option = Valued(name, helpName, description, parse);
        option.DefaultValueFactory = _ => fallback();
        return option;
    }

    private static Option<int> Whole(string name, string description, int fallback, int min, int max) =>
        Valued(name, "N", description, value => Integer(name, value, min, max), () => fallback);

    private static Option<int[]> WholeList(string name, string description, IReadOnlyList<int> fallback, int min, int max) =>
        Valued(name, "LIST", description, value => ListOf(name, value, item => Integer(name, item, min, max)), () => [.. fallback]);

    private static Option<double> Seconds(string name, string description, TimeSpan fallback, double min, double max) =>
        NumberOption(name, description, "SECONDS", fallback.TotalSeconds, min, max);

    private static Option<double> NumberOption(string name, string description, string helpName, double fallback, double min, double max) =>
        Valued(name, helpName, description, value => Number(name, value, min, max), () => fallback);

    // One value: the last one given wins, as with most command lines.
    private static string Last(ArgumentResult result) => result.Tokens.Count == 0 ? string.Empty : result.Tokens[^1].Value;

    // Our parsers name the option and the accepted range in their message; System.CommandLine reports it as the option's error.
    private static Func<ArgumentResult, T> Checked<T>(Func<string, T> parse) => result => Checked(result, () => parse(Last(result)));

    private static T Checked<T>(ArgumentResult result, Func<T> parse)
    {
        try
        {
            return parse();
        }
        catch (ArgumentException exception)
        {
            result.AddError(exception.Message);
            return default!;
        }
    }

    private static Dictionary<string, string> Variables(IEnumerable<string> assignments)
    {
        var variables = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var assignment in assignments)
        {
            var equals = assignment.IndexOf('=', StringComparison.Ordinal);
            if (equals <= 0)
                throw new ArgumentException($"--server-env: '{assignment}' is not NAME=VALUE.");

            variables[assignment[..equals]] = assignment[(equals + 1)..];
        }

        return variables;
    }

    private static CpuLayout[] Layouts(string value) => ListOf("--cpu-layout", value, item => item switch
    {
        "split" => CpuLayout.Split,
        "shared" => CpuLayout.Shared,
        _ => throw new ArgumentException($"--cpu-layout: '{item}' is not split or shared."),
    }, "at least one of split, shared");

    private static string[] List(string value) =>
        value.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    // Comma-separated values, each read by item; a value given twice is measured once.
    private static T[] ListOf<T>(string name, string value, Func<string, T> item, string needs = "at least one value") =>
        List(value) is { Length: > 0 } items ? [.. items.Select(item).Distinct()] : throw new ArgumentException($"{name} needs {needs}.");

    // One value: "1,2" is refused here rather than read as a list whose first item wins.
    private static int Integer(string name, string value, int min, int max) =>
        int.TryParse(value.Replace("_", string.Empty, StringComparison.Ordinal), NumberStyles.None, CultureInfo.InvariantCulture, out var number) && number >= min && number <= max
            ? number
            : throw new ArgumentException($"{name}: '{value}' is not a whole number from {min} to {max}.");

    private static double Number(string name, string value, double min, double max) =>
        double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out var number) && number >= min && number <= max
            ? number
            : throw new ArgumentException($"{name}: '{value}' is not a number from {min} to {max}.");

    private static Uri HttpUrl(string value) =>
        Uri.TryCreate(value, UriKind.Absolute, out var url) && (url.Scheme == Uri.UriSchemeHttp || url.Scheme == Uri.UriSchemeHttps)
            ? new Uri(url.GetLeftPart(UriPartial.Authority))
            : throw new ArgumentException($"--url: '{value}' is not an http(s) URL.");

    /// <summary>Whether <paramref name="url"/> is this machine: the runner sends load elsewhere only with --remote.</summary>
    internal static bool IsLoopback(Uri url) =>
        url.IsLoopback || (IPAddress.TryParse(url.Host.Trim('[', ']'), out var address) && IPAddress.IsLoopback(address));

    // Refused before the run rather than after it: a log the run cannot write would lose what it measured.
    private static string WritableFile(string value)
    {
        var folder = Path.GetDirectoryName(Path.GetFullPath(value));
        return Directory.Exists(folder) && !Directory.Exists(value)
            ? value
            : throw new ArgumentException($"--histogram-log: '{value}' is not a file in a folder that exists.");
    }
}
