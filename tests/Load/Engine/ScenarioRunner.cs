using System.Diagnostics;

namespace WebSerialization.Load.Engine;

/// <summary>
/// Runs one scenario under its load simulations: its init (probe the endpoint, fetch the payload), a warm-up, then for
/// each simulation: scrape the server's <c>/metrics</c> twice (the second scrape's difference is what one costs), run
/// the measured phase while watching the working set, scrape again, and subtract the scrapes that fell inside the phase.
/// </summary>
public sealed class ScenarioRunner(PayloadCache payloads, LoadOptions options)
{
    // After the last response has been read, the server may still be a moment from counting it as served.
    private static readonly TimeSpan CountersSettleTime = TimeSpan.FromSeconds(2);

    /// <summary>Runs the scenario once: its <paramref name="repetition"/> (from 1) of <see cref="LoadOptions.Repetitions"/>.</summary>
    /// <param name="rate">Null: the closed model with <paramref name="copies"/>; otherwise the open model at this many requests per second.</param>
    public async Task<ScenarioResult> RunAsync(ServerConnection server, LoadScenario scenario, int copies, double? rate, int repetition, CancellationToken cancellationToken)
    {
        var simulation = rate is { } perSecond
            ? Simulation.Inject(perSecond, TimeSpan.FromSeconds(1), options.Duration)
            : Simulation.KeepConstant(copies, options.Duration);
        var steps = await RunSimulationsAsync(server, scenario, _ => [simulation], repetition, null, cancellationToken);
        return steps[0];
    }

    /// <summary>
    /// The scenario under its own <see cref="LoadScenario.LoadSimulations"/>, one after the other after one warm-up:
    /// a result per simulation.
    /// </summary>
    public Task<IReadOnlyList<ScenarioResult>> RunOwnSimulationsAsync(ServerConnection server, LoadScenario scenario, int repetition, CancellationToken cancellationToken) =>
        RunSimulationsAsync(server, scenario, _ => scenario.LoadSimulations, repetition, null, cancellationToken);

    /// <summary>
    /// The capacity search of one scenario: after one warm-up, open-model steps at <see cref="CapacitySearch.Rates"/>
    /// until a step misses the bound (see <see cref="CapacitySearch.Judge"/>).
    /// </summary>
    public async Task<CapacityResult> RunCapacityAsync(ServerConnection server, LoadScenario scenario, CancellationToken cancellationToken)
    {
        var search = CapacitySearch.From(options);
        var steps = await RunSimulationsAsync(server, scenario, ran => search.Simulations(ran, options.Duration), 1, "capacity search", cancellationToken);
        return search.Conclude(scenario, steps);
    }

    // Init, one warm-up (closed model, the first simulation's copies), then one measured phase per simulation, each
    // between two readings of the server's counters; plan yields the simulations and sees each step as soon as it has run.
    private async Task<IReadOnlyList<ScenarioResult>> RunSimulationsAsync(
        ServerConnection server,
        LoadScenario scenario,
        Func<IReadOnlyList<ScenarioResult>, IEnumerable<LoadSimulation>> plan,
        int repetition,
        string? loadText,
        CancellationToken cancellationToken)
    {
        var steps = new List<ScenarioResult>();
        var simulations = plan(steps);
        var first = simulations.First();
        var copies = first.CopiesOrOne;
        var of = options.Repetitions > 1 ? string.Create(CultureInfo.InvariantCulture, $" run {repetition}/{options.Repetitions}") : string.Empty;
        var label = $"{scenario.Name} x{copies}{of}";
        var load = loadText ?? string.Join(", then ", simulations.Select(simulation => simulation.Describe()));
        Console.WriteLine($"Scenario {scenario.Name}, {load}{(of.Length > 0 ? $", repetition {repetition}/{options.Repetitions}" : string.Empty)}: {scenario.Description}");
        ScenarioResult NotRun(ScenarioOutcome outcome, string note) =>
            new(scenario, copies, outcome, note) { Rate = first.PerSecond, Repetition = repetition };

        var init = new ScenarioInitContext(server.Clients, payloads, options.RequestTimeout, cancellationToken);
        try
        {
            if (scenario.Init is { } initialize)
            {
                await initialize(init);
            }
        }
        catch (HttpRequestException exception)
        {
            Console.WriteLine($"  COULD NOT RUN: {exception.Message}");
            return [NotRun(ScenarioOutcome.CouldNotRun, $"could not run: {exception.Message}")];
        }

        if (init.SkipReason is { } absent)
        {
            Console.WriteLine($"  SKIPPED: {absent}");
            return [NotRun(ScenarioOutcome.Skipped, absent)];
        }

        var watch = server.WorkingSet is null ? null : await PeakWorkingSetWatch.StartAsync(server.WorkingSet, cancellationToken);
        IReadOnlyList<RequestSample> warmUp = [];
        if (options.WarmUp > TimeSpan.Zero)
        {
            var warm = await ScenarioPhase.RunAsync(scenario, server.Clients, Simulation.KeepConstant(copies, options.WarmUp), 0, $"{label} warm-up", options.MaxRequestsPerPhase, options.RequestTimeout, cancellationToken);
            warmUp = warm.Samples;
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
            return [NotRun(ScenarioOutcome.CouldNotRun, note) with
            {
                WarmUpRequests = warmUp.Count,
                WarmUpFailures = warmUp.Count,
                Server = server.Description,
            }];
        }

        var previousPerSecond = 0.0;
        foreach (var simulation in simulations)
        {
            watch ??= server.WorkingSet is null ? null : await PeakWorkingSetWatch.StartAsync(server.WorkingSet, cancellationToken);
            var step = await MeasureAsync(server, scenario, simulation, previousPerSecond, label, watch, cancellationToken);
            watch = null;
            previousPerSecond = simulation.PerSecond ?? 0;
            step = step with
            {
                Repetition = repetition,
                Note = steps.Count == 0 ? WarmUpNote(warmUp) : null,
                WarmUpRequests = steps.Count == 0 ? warmUp.Count : 0,
                WarmUpFailures = steps.Count == 0 ? warmUp.Count(sample => !sample.Succeeded) : 0,
            };
            Console.WriteLine($"  {ConsoleReport.OneLine(step)}");
            steps.Add(step);
        }

        if (scenario.InProcessDecode is { } measureDecode)
        {
            // After the measured phases, so the decode's CPU does not compete with the server's.
            var decode = await measureDecode(cancellationToken);
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  in-process decode of the same {decode.Bytes / Units.BytesPerMegabyte:0.0} MB: {decode.Median.TotalMilliseconds:0} ms (median of {InProcessDecode.MeasuredRuns} after {decode.WarmUpRuns} warm-up decodes)"));
            return [.. steps.Select(step => step with { InProcessDecode = decode.Median })];
        }

        return steps;
    }

    private async Task<ScenarioResult> MeasureAsync(
        ServerConnection server,
        LoadScenario scenario,
        LoadSimulation simulation,
        double previousPerSecond,
        string label,
        PeakWorkingSetWatch? watch,
        CancellationToken cancellationToken)
    {
        var metrics = server.Metrics;
        var before = metrics is null ? null : await metrics.ReadWindowStartAsync(cancellationToken);
        var scrapesAtStart = metrics?.Calls ?? 0;
        var serverCpuBefore = server.ProcessId is { } serverId ? CpuAffinity.CpuTime(serverId) : null;
        var clientCpuBefore = CpuAffinity.CpuTime(Environment.ProcessId);
        var measured = simulation.PerSecond is { } perSecond
            ? string.Create(CultureInfo.InvariantCulture, $"{scenario.Name} r{perSecond:0.#} measured")
            : $"{label} measured";
        var phase = await ScenarioPhase.RunAsync(scenario, server.Clients, simulation, previousPerSecond, measured, options.MaxRequestsPerPhase, options.RequestTimeout, cancellationToken);
        var (samples, late, elapsed) = (phase.Samples, phase.Late, phase.Elapsed);
        foreach (var line in phase.Log)
        {
            Console.WriteLine($"  log: {line}");
        }

        var serverCpu = server.ProcessId is { } id ? CpuAffinity.CpuTime(id) - serverCpuBefore : null;
        var clientCpu = CpuAffinity.CpuTime(Environment.ProcessId) - clientCpuBefore;
        var peak = watch is null ? 0 : await watch.StopAsync();
        var sent = samples.Count(sample => sample.Error?.StartsWith(InjectLoad.DroppedError, StringComparison.Ordinal) != true);
        var cost = metrics is null || before is null ? null : await ReadCostAsync(metrics, before, scrapesAtStart, sent, cancellationToken);

        return new ScenarioResult(scenario, simulation.CopiesOrOne, ScenarioOutcome.Ran, null)
        {
            Rate = simulation.PerSecond,
            RampedFrom = simulation is LoadSimulation.RampingInject ? previousPerSecond : null,
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

    private static string? WarmUpNote(IReadOnlyList<RequestSample> warmUp)
    {
        var failed = warmUp.Count(sample => !sample.Succeeded);
        return failed == 0 ? null : $"{failed} of {warmUp.Count} warm-up requests failed";
    }

    // Scrapes until the server has counted every request sent (it counts one when it has recorded its duration, which
    // may be a moment after the client read the last byte), or the settle time is up.
    private static async Task<ServerCost> ReadCostAsync(
        ServerMetricsClient metrics,
        ServerMetrics before,
        long scrapesAtStart,
        int requestsSent,
        CancellationToken cancellationToken)
    {
        var settling = Stopwatch.StartNew();
        while (true)
        {
            // The scrapes inside the window: the tail of "before", every scrape since (working-set polls, earlier tries
            // of this loop), and the head of this one; a head and a tail make one whole scrape.
            var scrapesInWindow = metrics.Calls - scrapesAtStart + 1;
            var after = await metrics.ReadAsync(cancellationToken);
            var cost = ServerCost.Between(before, after, scrapesInWindow, metrics.ReadCost);
            if (cost.RequestsServed >= requestsSent || settling.Elapsed > CountersSettleTime)
            {
                return cost;
            }

            await Task.Delay(TimeSpan.FromMilliseconds(50), cancellationToken);
        }
    }
}
