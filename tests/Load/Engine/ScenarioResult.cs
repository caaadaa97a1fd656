namespace WebSerialization.Load.Engine;

/// <summary>
/// One scenario run once at one number of copies: its samples, their statistics and what the server paid. With
/// <c>--repeat</c> a scenario has several, which <see cref="RepeatedScenario"/> puts together.
/// </summary>
public sealed record ScenarioResult(LoadScenario Scenario, int Copies, ScenarioOutcome Outcome, string? Note)
{
    /// <summary>Which repetition of the scenario and copies this is, from 1.</summary>
    public int Repetition { get; init; } = 1;

    /// <summary>
    /// The open model's arrival rate in requests per second (NBomber's <c>Inject</c>); null for the closed model, where
    /// <see cref="Copies"/> is the load.
    /// </summary>
    public double? Rate { get; init; }

    /// <summary>A ramping open model (NBomber's <c>RampingInject</c>): the rate it started from; <see cref="Rate"/> is where it ended.</summary>
    public double? RampedFrom { get; init; }

    /// <summary>Open model: requests sent more than <see cref="InjectLoad.LateAfter"/> after their intended start.</summary>
    public int LateRequests { get; init; }

    /// <summary>Streamed uploads: the same payload decoded in the runner's process (<see cref="InProcessDecode"/>), the upload target's yardstick.</summary>
    public TimeSpan? InProcessDecode { get; init; }

    /// <summary>Measured samples (warm-up excluded).</summary>
    public IReadOnlyList<RequestSample> Samples { get; init; } = [];

    public int WarmUpRequests { get; init; }

    public int WarmUpFailures { get; init; }

    /// <summary>From the phase's start until its last request ended.</summary>
    public TimeSpan Elapsed { get; init; }

    public ServerCost? ServerCost { get; init; }

    /// <summary>The server's idle working set before any load: at its start, or at the start of the run for a shared server.</summary>
    public long BaselineWorkingSet { get; init; }

    /// <summary>The server's working set when this scenario started (before its warm-up).</summary>
    public long StartWorkingSet { get; init; }

    /// <summary>The server's largest working set during this scenario, warm-up included.</summary>
    public long PeakWorkingSet { get; init; }

    public string? PeakMethod { get; init; }

    /// <summary>The CPU time the server process used during the measured phase; null when it could not be read (not on this machine).</summary>
    public TimeSpan? ServerCpuTime { get; init; }

    public TimeSpan? ClientCpuTime { get; init; }

    public int ClientCpuCount { get; init; }

    /// <summary>Server CPU time per request sent, in milliseconds: what a request cost the server's CPUs, whatever their number.</summary>
    public double? ServerCpuMillisecondsPerRequest => ServerCpuTime is { } cpu && Samples.Count > 0 ? cpu.TotalMilliseconds / Samples.Count : null;

    /// <summary>The share of its CPUs the load client kept busy, 0 to 1: near 1, the client, not the server, may have set the pace.</summary>
    public double? ClientBusy => ClientCpuTime is { } cpu && ClientCpuCount > 0 && Elapsed > TimeSpan.Zero ? cpu / (Elapsed * ClientCpuCount) : null;

    /// <summary>Where the server and the client ran while it was measured (see <see cref="CpuPlan"/>).</summary>
    public CpuLayout Layout { get; init; }

    public string? Server { get; init; }

    /// <summary>How the requests reached the API: straight, or through HAProxy in a <c>--through-haproxy</c> run.</summary>
    public ServerRoute Route { get; init; }

    public string ReportName => $"{Scenario.Name}-{LoadLabel}{(Route == ServerRoute.ThroughHAProxy ? "-through-haproxy" : string.Empty)}";

    /// <summary>The load: <c>x4</c> (closed model, copies) or <c>r250</c> (open model, requests per second).</summary>
    public string LoadLabel => Rate is not { } rate ? $"x{Copies}"
        : RampedFrom is { } from ? string.Create(System.Globalization.CultureInfo.InvariantCulture, $"r{from:0.#}-{rate:0.#}")
        : string.Create(System.Globalization.CultureInfo.InvariantCulture, $"r{rate:0.#}");

    /// <summary>Open model: requests never sent because <see cref="InjectLoad.MaxInFlight"/> were already waiting.</summary>
    public int DroppedRequests => Samples.Count(sample => sample.Error?.StartsWith(InjectLoad.DroppedError, StringComparison.Ordinal) == true);

    public IEnumerable<RequestSample> Succeeded => Samples.Where(sample => sample.Succeeded);

    public int FailedCount => Samples.Count(sample => !sample.Succeeded);

    /// <summary>True when a request failed (warm-up included) or the scenario could not run.</summary>
    public bool HasFailures => Outcome == ScenarioOutcome.CouldNotRun || FailedCount > 0 || WarmUpFailures > 0;

    public LatencyDistribution? TimeToFirstByte =>
        LatencyHistogram.Of(Succeeded.Select(sample => sample.TimeToFirstByte!.Value)).ToDistribution();

    /// <summary>Latency from each request's intended start (the open model's schedule) to its last byte, from one histogram.</summary>
    public LatencyDistribution? Latency => LatencyHistogram.Of(Succeeded.Select(sample => sample.Latency)).ToDistribution();

    /// <summary>Each step's figures (<see cref="Step.Run"/>), in the order the steps first ran; empty for a scenario without steps.</summary>
    public IReadOnlyList<StepFigures> Steps => StepFigures.Of(Samples);

    public double? ResponseBytes => Succeeded.Any() ? Succeeded.Average(sample => (double)sample.BytesReceived) : null;

    public double? RequestBytes => Samples.Count > 0 ? Samples.Average(sample => (double)sample.BytesSent) : null;

    /// <summary>Body bytes moved (sent plus received) by successful requests, per second of the phase, in MB/s.</summary>
    public double? MegabytesPerSecond => Elapsed > TimeSpan.Zero && Succeeded.Any()
        ? Succeeded.Sum(sample => (double)(sample.BytesSent + sample.BytesReceived)) / Units.BytesPerMegabyte / Elapsed.TotalSeconds
        : null;

    public double? RequestsPerSecond => Elapsed > TimeSpan.Zero ? Succeeded.Count() / Elapsed.TotalSeconds : null;

    /// <summary>How far this scenario raised the server's working set above its idle baseline.</summary>
    public long WorkingSetRaise => PeakWorkingSet - BaselineWorkingSet;

    /// <summary>The distinct failure reasons with their counts, most frequent first.</summary>
    public IEnumerable<(string Error, int Count)> FailureReasons => Samples
        .Where(sample => !sample.Succeeded)
        .GroupBy(sample => sample.Error!)
        .Select(group => (group.Key, group.Count()))
        .OrderByDescending(reason => reason.Item2);
}
