using System.Diagnostics;
using System.Globalization;
using System.Net;
using WebSerialization.Load.Cpus;
using WebSerialization.Models.Diagnostics;

namespace WebSerialization.Load.Engine;

/// <summary>
/// Runs one scenario at one number of copies: probe the endpoint, fetch the payload, warm up, read the server's
/// counters twice (the second read's difference is what one read costs), run the measured phase while watching the
/// working set, read the counters again, and subtract the reads that fell inside the phase.
/// </summary>
public sealed class ScenarioRunner(PayloadCache payloads, LoadOptions options)
{
    // After the last response has been read, the server may still be a moment from counting it as served.
    private static readonly TimeSpan CountersSettleTime = TimeSpan.FromSeconds(2);

    /// <summary>Runs the scenario once: its <paramref name="repetition"/> (from 1) of <see cref="LoadOptions.Repetitions"/>.</summary>
    /// <param name="rate">Null: the closed model with <paramref name="copies"/>; otherwise the open model at this many requests per second.</param>
    public async Task<ScenarioResult> RunAsync(ServerConnection server, LoadScenario scenario, int copies, double? rate, int repetition, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(server);
        ArgumentNullException.ThrowIfNull(scenario);
        var steps = await RunStepsAsync(server, scenario, copies, _ => [rate], repetition, cancellationToken);
        return steps[0] with { Repetition = repetition };
    }

    /// <summary>
    /// The capacity search of one scenario: after one warm-up, open-model steps at <see cref="CapacitySearch.Rates"/>
    /// until a rate misses the bound as often as the search allows (see <see cref="CapacitySearch.Plan"/>).
    /// </summary>
    public async Task<CapacityResult> RunCapacityAsync(ServerConnection server, LoadScenario scenario, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(server);
        ArgumentNullException.ThrowIfNull(scenario);
        var search = CapacitySearch.From(options);
        var steps = await RunStepsAsync(server, scenario, 1, ran => search.Plan(ran).Select(rate => (double?)rate), 1, cancellationToken);
        return search.Conclude(scenario, steps);
    }

    // Probe, payload, one warm-up (closed model, the given copies), then one measured phase per load, each between two
    // readings of the server's counters; plan yields the loads and sees each step as soon as it has run.
    private async Task<IReadOnlyList<ScenarioResult>> RunStepsAsync(
        ServerConnection server,
        LoadScenario scenario,
        int copies,
        Func<IReadOnlyList<ScenarioResult>, IEnumerable<double?>> plan,
        int repetition,
        CancellationToken cancellationToken)
    {
        var steps = new List<ScenarioResult>();
        var loads = plan(steps);
        var first = loads.First();
        var client = server.Client;
        var of = options.Repetitions > 1 ? string.Create(CultureInfo.InvariantCulture, $" run {repetition}/{options.Repetitions}") : string.Empty;
        var label = $"{scenario.Name} x{copies}{of}";
        var load = loads.Skip(1).Any() ? "capacity search" : first is { } only ? string.Create(CultureInfo.InvariantCulture, $"{only:0.#} requests/s") : $"copies {copies}";
        Console.WriteLine($"Scenario {scenario.Name}, {load}{(of.Length > 0 ? $", repetition {repetition}/{options.Repetitions}" : string.Empty)}: {scenario.Description}");

        var absent = GrpcScenarios.Is(scenario) ? null : await ProbeAsync(client, scenario, cancellationToken);
        if (absent is not null)
        {
            Console.WriteLine($"  SKIPPED: {absent}");
            return [new ScenarioResult(scenario, copies, ScenarioOutcome.Skipped, absent) { Rate = first }];
        }

        byte[] payload;
        try
        {
            payload = await payloads.GetAsync(client, scenario, cancellationToken);
        }
        catch (HttpRequestException exception)
        {
            Console.WriteLine($"  COULD NOT RUN: {exception.Message}");
            return [new ScenarioResult(scenario, copies, ScenarioOutcome.CouldNotRun, $"could not run: {exception.Message}") { Rate = first }];
        }

        var watch = server.WorkingSet is null ? null : await PeakWorkingSetWatch.StartAsync(server.WorkingSet, cancellationToken);
        Task<RequestSample> Send(int copy, long phaseStart) => GrpcScenarios.Is(scenario)
            ? GrpcMeasuredCall.SendAsync(server.Grpc, scenario, copy, phaseStart, options.RequestTimeout, cancellationToken)
            : MeasuredRequest.SendAsync(client, scenario, payload, copy, phaseStart, options.RequestTimeout, cancellationToken);

        IReadOnlyList<RequestSample> warmUp = [];
        if (options.WarmUp > TimeSpan.Zero)
        {
            (warmUp, _) = await KeepConstantLoad.RunAsync($"{label} warm-up", copies, options.WarmUp, options.MaxRequestsPerPhase, Send, cancellationToken);
        }

        if (warmUp.Count > 0 && warmUp.All(sample => !sample.Succeeded))
        {
            // Measuring a scenario whose every request fails would only time error pages (and fill the server's log).
            var reason = warmUp.GroupBy(sample => sample.Error).OrderByDescending(group => group.Count()).First().Key;
            var note = $"all {warmUp.Count} warm-up requests failed ({reason}); the measured phase was not run";
            if (watch is not null)
            {
                await watch.StopAsync();
            }

            Console.WriteLine($"  COULD NOT RUN: {note}");
            return [new ScenarioResult(scenario, copies, ScenarioOutcome.CouldNotRun, note)
            {
                Rate = first,
                WarmUpRequests = warmUp.Count,
                WarmUpFailures = warmUp.Count,
                Server = server.Description,
            }];
        }

        foreach (var rate in loads)
        {
            watch ??= server.WorkingSet is null ? null : await PeakWorkingSetWatch.StartAsync(server.WorkingSet, cancellationToken);
            var step = await MeasureAsync(server, scenario, copies, rate, label, Send, watch, cancellationToken);
            watch = null;
            step = step with
            {
                Note = steps.Count == 0 ? WarmUpNote(warmUp) : null,
                WarmUpRequests = steps.Count == 0 ? warmUp.Count : 0,
                WarmUpFailures = steps.Count == 0 ? warmUp.Count(sample => !sample.Succeeded) : 0,
            };
            Console.WriteLine($"  {ConsoleReport.OneLine(step)}");
            steps.Add(step);
        }

        if (scenario.Kind == ScenarioKind.Upload && scenario.Endpoint == ScenarioEndpoint.Streamed)
        {
            // After the measured phases, so the decode's CPU does not compete with the server's.
            var decode = await InProcessDecode.MeasureAsync(scenario.Format, payload, cancellationToken);
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  in-process decode of the same {payload.Length / Units.BytesPerMegabyte:0.0} MB: {decode.TotalMilliseconds:0} ms (median of 3)"));
            return [.. steps.Select(step => step with { InProcessDecode = decode })];
        }

        return steps;
    }

    private async Task<ScenarioResult> MeasureAsync(
        ServerConnection server,
        LoadScenario scenario,
        int copies,
        double? rate,
        string label,
        Func<int, long, Task<RequestSample>> send,
        PeakWorkingSetWatch? watch,
        CancellationToken cancellationToken)
    {
        var counters = server.Counters;
        RuntimeCounters? before = null;
        long readCost = 0;
        long callsAtStart = 0;
        if (counters is not null)
        {
            var first = await counters.ReadAsync(cancellationToken);
            before = await counters.ReadAsync(cancellationToken);
            readCost = before.TotalAllocatedBytes - first.TotalAllocatedBytes;
            callsAtStart = counters.Calls;
        }

        var scrapesAtStart = server.Metrics?.Calls ?? 0;
        var metricsBefore = server.Metrics is null ? null : await server.Metrics.ReadWindowStartAsync(cancellationToken);
        var serverCpuBefore = server.ProcessId is { } serverId ? CpuAffinity.CpuTime(serverId) : null;
        var clientCpuBefore = CpuAffinity.CpuTime(Environment.ProcessId);
        IReadOnlyList<RequestSample> samples;
        TimeSpan elapsed;
        var late = 0;
        if (rate is { } perSecond)
        {
            var progress = new PhaseProgress();
            var measured = string.Create(CultureInfo.InvariantCulture, $"{scenario.Name} r{perSecond:0.#} measured");
            (samples, late, elapsed) = await ProgressDisplay.WatchAsync(
                measured, options.Duration, progress, InjectLoad.RunAsync(perSecond, options.Duration, options.MaxRequestsPerPhase, send, progress, cancellationToken));
        }
        else
        {
            (samples, elapsed) = await KeepConstantLoad.RunAsync($"{label} measured", copies, options.Duration, options.MaxRequestsPerPhase, send, cancellationToken);
        }

        var serverCpu = server.ProcessId is { } id ? CpuAffinity.CpuTime(id) - serverCpuBefore : null;
        var clientCpu = CpuAffinity.CpuTime(Environment.ProcessId) - clientCpuBefore;
        var metricsAfter = server.Metrics is null ? null : await server.Metrics.ReadAsync(cancellationToken);
        var peak = watch is null ? 0 : await watch.StopAsync();
        var sent = samples.Count(sample => sample.Error?.StartsWith(InjectLoad.DroppedError, StringComparison.Ordinal) != true);
        var scrapes = (server.Metrics?.Calls ?? 0) - scrapesAtStart;
        var cost = counters is null || before is null ? null
            : await ReadCostAsync(counters, before, callsAtStart, readCost, sent, scrapes, scrapes * (server.Metrics?.ReadCost ?? 0), cancellationToken);
        if (cost is not null && metricsBefore is not null && metricsAfter is not null)
        {
            cost = cost with { Metrics = ServerMetricsCost.Between(metricsBefore, metricsAfter, server.Metrics!.ReadCost, (counters!.Calls - callsAtStart) * readCost) };
        }

        return new ScenarioResult(scenario, copies, ScenarioOutcome.Ran, null)
        {
            Rate = rate,
            LateRequests = late,
            Samples = samples,
            Elapsed = elapsed,
            ServerCost = cost,
            BaselineWorkingSet = server.IdleWorkingSet,
            StartWorkingSet = watch?.AtStart ?? 0,
            PeakWorkingSet = peak,
            PeakMethod = server.WorkingSet?.PeakMethod,
            Server = server.Description,
            ServerCpuTime = serverCpu,
            ClientCpuTime = clientCpu,
            ClientCpuCount = CpuAffinity.OfProcess(Environment.ProcessId)?.Count ?? Environment.ProcessorCount,
        };
    }

    // Null when the endpoint is there; otherwise why the scenario is skipped.
    private async Task<string?> ProbeAsync(HttpClient client, LoadScenario scenario, CancellationToken cancellationToken)
    {
        using var probe = scenario.CreateProbe();
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(options.RequestTimeout);
        using var response = await client.SendAsync(probe, HttpCompletionOption.ResponseHeadersRead, timeout.Token);
        return response.StatusCode is HttpStatusCode.NotFound or HttpStatusCode.MethodNotAllowed
            ? $"{probe.Method} {probe.RequestUri} answered {(int)response.StatusCode} {response.ReasonPhrase}: the endpoint is not on this server (yet)."
            : null;
    }

    private static string? WarmUpNote(IReadOnlyList<RequestSample> warmUp)
    {
        var failed = warmUp.Count(sample => !sample.Succeeded);
        return failed == 0 ? null : $"{failed} of {warmUp.Count} warm-up requests failed";
    }

    private static async Task<ServerCost> ReadCostAsync(
        RuntimeCountersClient counters,
        RuntimeCounters before,
        long callsAtStart,
        long readCost,
        int requestsSent,
        long scrapes,
        long scrapeBytes,
        CancellationToken cancellationToken)
    {
        var settling = Stopwatch.StartNew();
        while (true)
        {
            // The reads inside the window: the tail of "before", every read since (polls, earlier tries of this
            // loop), and the head of this one; a head and a tail make one whole read.
            var readsInWindow = counters.Calls - callsAtStart + 1;
            var after = await counters.ReadAsync(cancellationToken);
            var cost = ServerCost.Between(before, after, readsInWindow, readCost, scrapes, scrapeBytes);
            if (cost.RequestsServed >= requestsSent || settling.Elapsed > CountersSettleTime)
            {
                return cost;
            }

            await Task.Delay(TimeSpan.FromMilliseconds(50), cancellationToken);
        }
    }
}
