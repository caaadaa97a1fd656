using WebSerialization.Api.Diagnostics;
using System.Diagnostics;
using System.Globalization;
using System.Net;

namespace WebSerialization.Load;

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
    public async Task<ScenarioResult> RunAsync(ServerConnection server, LoadScenario scenario, int copies, int repetition, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(server);
        ArgumentNullException.ThrowIfNull(scenario);
        var result = await RunOnceAsync(server, scenario, copies, repetition, cancellationToken);
        return result with { Repetition = repetition };
    }

    private async Task<ScenarioResult> RunOnceAsync(ServerConnection server, LoadScenario scenario, int copies, int repetition, CancellationToken cancellationToken)
    {
        var client = server.Client;
        var counters = server.Counters;
        var of = options.Repetitions > 1 ? string.Create(CultureInfo.InvariantCulture, $" run {repetition}/{options.Repetitions}") : string.Empty;
        var label = $"{scenario.Name} x{copies}{of}";
        Console.WriteLine($"Scenario {scenario.Name}, copies {copies}{(of.Length > 0 ? $", repetition {repetition}/{options.Repetitions}" : string.Empty)}: {scenario.Description}");

        var absent = GrpcScenarios.Is(scenario) ? null : await ProbeAsync(client, scenario, cancellationToken);
        if (absent is not null)
        {
            Console.WriteLine($"  SKIPPED: {absent}");
            return new ScenarioResult(scenario, copies, ScenarioOutcome.Skipped, absent);
        }

        byte[] payload;
        try
        {
            payload = await payloads.GetAsync(client, scenario, cancellationToken);
        }
        catch (HttpRequestException exception)
        {
            Console.WriteLine($"  COULD NOT RUN: {exception.Message}");
            return new ScenarioResult(scenario, copies, ScenarioOutcome.CouldNotRun, $"could not run: {exception.Message}");
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
            return new ScenarioResult(scenario, copies, ScenarioOutcome.CouldNotRun, note)
            {
                WarmUpRequests = warmUp.Count,
                WarmUpFailures = warmUp.Count,
                Server = server.Description,
            };
        }

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

        var (samples, elapsed) = await KeepConstantLoad.RunAsync($"{label} measured", copies, options.Duration, options.MaxRequestsPerPhase, Send, cancellationToken);
        var peak = watch is null ? 0 : await watch.StopAsync();
        var cost = counters is null || before is null ? null : await ReadCostAsync(counters, before, callsAtStart, readCost, samples.Count, cancellationToken);

        var result = new ScenarioResult(scenario, copies, ScenarioOutcome.Ran, WarmUpNote(warmUp))
        {
            Samples = samples,
            WarmUpRequests = warmUp.Count,
            WarmUpFailures = warmUp.Count(sample => !sample.Succeeded),
            Elapsed = elapsed,
            ServerCost = cost,
            BaselineWorkingSet = server.IdleWorkingSet,
            StartWorkingSet = watch?.AtStart ?? 0,
            PeakWorkingSet = peak,
            PeakMethod = server.WorkingSet?.PeakMethod,
            Server = server.Description,
        };
        Console.WriteLine($"  {ConsoleReport.OneLine(result)}");
        return result;
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
        CancellationToken cancellationToken)
    {
        var settling = Stopwatch.StartNew();
        while (true)
        {
            // The reads inside the window: the tail of "before", every read since (polls, earlier tries of this
            // loop), and the head of this one; a head and a tail make one whole read.
            var readsInWindow = counters.Calls - callsAtStart + 1;
            var after = await counters.ReadAsync(cancellationToken);
            var cost = ServerCost.Between(before, after, readsInWindow, readCost);
            if (cost.RequestsServed >= requestsSent || settling.Elapsed > CountersSettleTime)
            {
                return cost;
            }

            await Task.Delay(TimeSpan.FromMilliseconds(50), cancellationToken);
        }
    }
}
