using Spectre.Console;
using BarChart = WebSerialization.Load.Reports.BarChart;

namespace WebSerialization.Load.Running;

/// <summary>A whole load run: start (or reach) the server, run every selected scenario at every number of copies, write the
/// reports, judge the targets, stop the server. Bounded by an overall timeout; Ctrl+C stops it cleanly.</summary>
public static class LoadRun
{
    /// <summary>The run <paramref name="args"/> ask for, which can also measure <paramref name="registered"/>, the scenarios registered in code (<see cref="LoadRunner"/>).</summary>
    public static async Task<int> RunAsync(string[] args, IReadOnlyList<LoadScenario> registered)
    {
        if (await ParseAsync(args) is not { } options)
            return 2;

        if (options.ShowHelp)
        {
            Console.Write(LoadOptions.Usage);
            return 0;
        }

        var repositoryRoot = FindRepositoryRoot();
        if (options.LogCost)
        {
            return repositoryRoot is not null
                ? await LogCost.LogCostRun.RunAsync(args, options, repositoryRoot)
                : await Failed("Cannot find WebSerialization.sln above this program or the current folder, so cannot start the servers.");
        }

        if (await RunPlan.CreateAsync(args, options, repositoryRoot, registered) is not { } plan)
            return 2;

        plan.Announce();
        using var stop = new RunStop(plan.Timeout);
        var record = new RunRecord(RunDescription.Create(args, plan.Options, plan.CpusDescription, plan.Options.Url is null ? "not started" : $"already running at {plan.Options.Url}"));
        await using (var otherWork = OtherProcessesWatch.Start(Environment.ProcessId))
        {
            var cpuSpeed = CpuSpeedWatch.Start();
            await MeasureAsync(plan, record, stop);
            if (otherWork is not null)
                record.Run = record.Run with { OtherWork = await otherWork.StopAsync() };

            record.Run = record.Run with { CpuSpeed = cpuSpeed?.Stop() };
        }

        if (plan.Options.HistogramLog is { } histogramLog)
            Console.WriteLine($"Histogram log (for merge): {await HistogramLog.WriteAsync(histogramLog, record.Run, record.Results)}");

        var reports = await WriteReportsAsync(plan, record);
        ShowSummary(reports, record.Ending);
        await WriteResultsFileAsync(plan, record, reports);
        return record.ExitCode != 0 ? record.ExitCode : Verdict(plan.Options, record.Results, record.Capacities);
    }

    // The options, or null with the reason on standard error.
    private static async Task<LoadOptions?> ParseAsync(string[] args)
    {
        try
        {
            return LoadOptions.Parse(args);
        }
        catch (ArgumentException exception)
        {
            await Console.Error.WriteLineAsync(exception.Message);
            await Console.Error.WriteLineAsync("Use --help for every option and its default.");
            return null;
        }
    }

    // Builds the API, runs the plan, and records why it ended early if it did; the servers are stopped whatever happens.
    private static async Task MeasureAsync(RunPlan plan, RunRecord record, RunStop stop)
    {
        RunServers? servers = null;
        void OnProcessExit(object? sender, EventArgs e) => servers?.KillNow();
        AppDomain.CurrentDomain.ProcessExit += OnProcessExit;
        try
        {
            var assembly = plan.Options.Url is null
                ? await ApiServerProcess.BuildAsync(plan.Options.ApiFrom ?? plan.RepositoryRoot!, !plan.Options.NoBuild, Path.Combine(plan.ReportDirectory, "build.log"), stop.Token)
                : null;
            servers = new RunServers(plan, record, assembly, stop.Token);
            if (!plan.ServerPerScenario)
                await servers.SharedAsync(plan.Cpus.Primary, ServerRoute.Straight);

            var runner = new ScenarioRunner(new PayloadCache(plan.Options.RequestTimeout), plan.Options);
            await RunScenariosAsync(plan, record, servers, runner, stop.Token);
            if (plan.Options.Smoke)
                await RunSmokeModelsAsync(plan, record, servers, runner, stop.Token);
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            record.Ending = stop.InterruptedBy is not null ? $"Interrupted ({stop.InterruptedBy}): the summary covers the scenarios that finished."
                : $"Stopped by the overall timeout ({stop.Timeout:hh\\:mm\\:ss}): the summary covers the scenarios that finished.";
            record.ExitCode = stop.InterruptedBy is not null ? 130 : 2;
        }
        catch (Exception exception) when (exception is InvalidOperationException or TimeoutException or HttpRequestException or IOException)
        {
            record.Ending = $"Stopped: {exception.Message}";
            record.ExitCode = 2;
        }
        finally
        {
            if (servers is not null)
                await servers.DisposeAsync();

            AppDomain.CurrentDomain.ProcessExit -= OnProcessExit;
        }
    }

    // Repetitions are interleaved (every scenario once, then again) so that anything else slowing the machine for a
    // while hits one run of many scenarios rather than every run of one; so are the routes of --through-haproxy, each
    // scenario and load straight and through HAProxy one after the other.
    private static async Task RunScenariosAsync(RunPlan plan, RunRecord record, RunServers servers, ScenarioRunner runner, CancellationToken cancellationToken)
    {
        for (var repetition = 1; repetition <= plan.Options.Repetitions; repetition++)
        {
            foreach (var scenario in plan.Scenarios)
            {
                // A scenario with load simulations of its own runs them once per layout, whatever the command line's loads.
                var loads = scenario.LoadSimulations.Count > 0 ? plan.Loads.Take(1) : plan.Loads;
                foreach (var ((copies, rate), layout) in loads.SelectMany(load => plan.Cpus.Layouts.Select(layout => (load, layout))))
                {
                    foreach (var route in plan.Routes(repetition))
                    {
                        var done = await RunOneAsync(plan, record, servers, runner, scenario, copies, rate, layout, route, repetition, cancellationToken);
                        record.Results.AddRange(done);
                        await WriteScenarioReportsAsync(record.Results, done, record.Run, plan.LayoutDirectory(layout), cancellationToken);
                    }
                }
            }
        }
    }

    // One scenario at one load on one layout by one route: a capacity search or one measured phase. A server (or a
    // replica or HAProxy) that exits meanwhile makes the results "could not run"; a shared one is gone for good, so the run stops.
    private static async Task<IReadOnlyList<ScenarioResult>> RunOneAsync(
        RunPlan plan, RunRecord record, RunServers servers, ScenarioRunner runner, LoadScenario scenario, int copies, double? rate, CpuLayout layout, ServerRoute route, int repetition, CancellationToken cancellationToken)
    {
        var options = plan.Options;
        var cpus = plan.Cpus;
        var loadName = rate is { } perSecond ? string.Create(CultureInfo.InvariantCulture, $"r{perSecond:0.#}") : options.Capacity ? "capacity" : $"x{copies}";
        var logSuffix = (options.Repetitions > 1 ? $"-run{repetition}" : string.Empty) + (cpus.Compares ? $"-{CpuPlan.Name(layout)}" : string.Empty);
        var shared = plan.ServerPerScenario ? null : await servers.SharedAsync(layout, route);
        if (options.ThroughHAProxy)
            Console.WriteLine(route == ServerRoute.ThroughHAProxy ? "Through HAProxy:" : "Straight from replica 1:");

        var connection = shared ?? await servers.OpenAsync($"server-{scenario.Name}-{loadName}{logSuffix}.log", layout);
        IReadOnlyList<ScenarioResult> done;
        string? serverExit = null;
        try
        {
            if (shared is null && record.Results.Count == 0)
            {
                var per = (options.Repetitions > 1 ? "scenario, load and repetition" : "scenario and load") + (cpus.Compares ? " and CPU layout" : string.Empty);
                record.Run = record.Run with { Server = $"a fresh process per {per}, started by the runner ({plan.StartedServer}); the first: {connection.Description}" };
            }

            done = options.Capacity ? (await SearchCapacityAsync(record, runner, connection, scenario, layout, cancellationToken)).Steps
                : scenario.LoadSimulations.Count > 0 ? [.. (await runner.RunOwnSimulationsAsync(connection, scenario, repetition, cancellationToken)).Select(result => result with { Layout = layout })]
                : [await runner.RunAsync(connection, scenario, copies, rate, repetition, cancellationToken) with { Layout = layout }];

            if (connection.Process is { HasExited: true } process)
                serverExit = process.DescribeExit() + " during the scenario";
            else if (servers.Exited(layout) is { } exited)
                serverExit = exited + " during the scenario";
        }
        catch (Exception exception) when ((connection.Process is { HasExited: true } || servers.Exited(layout) is not null) && !cancellationToken.IsCancellationRequested)
        {
            serverExit = $"{connection.Process?.DescribeExit() ?? servers.Exited(layout)} ({exception.GetType().Name}: {exception.Message})";
            done = [new ScenarioResult(scenario, copies, ScenarioOutcome.CouldNotRun, serverExit) { Repetition = repetition, Rate = rate, Layout = layout }];
        }
        finally
        {
            if (shared is null)
                await connection.DisposeAsync();
        }

        done = [.. done.Select(result => result with { Route = route })];
        if (serverExit is not null)
        {
            done = [.. done.Select(result => result with { Outcome = ScenarioOutcome.CouldNotRun, Note = serverExit })];
            Console.WriteLine($"  COULD NOT RUN: {serverExit}");
            if (shared is not null)
            {
                record.Results.AddRange(done);
                throw new InvalidOperationException(serverExit);
            }
        }

        return done;
    }

    // The smoke's other two load models, small and short: one open-model scenario and one capacity search.
    private static async Task RunSmokeModelsAsync(RunPlan plan, RunRecord record, RunServers servers, ScenarioRunner runner, CancellationToken cancellationToken)
    {
        var primary = plan.Cpus.Primary;
        var smokeScenario = plan.Scenarios.First(scenario => scenario.Subject is { } subject && subject.Operation == ScenarioOperation.Download && subject.MemberCount == LoadOptions.SmokeMemberCount);
        var smokeServer = await servers.SharedAsync(primary);
        var open = await runner.RunAsync(smokeServer, smokeScenario, 1, LoadOptions.SmokeRate, 1, cancellationToken) with { Layout = primary };
        record.Results.Add(open);
        await WriteScenarioReportsAsync(record.Results, [open], record.Run, plan.ReportDirectory, cancellationToken);
        var capacity = await SearchCapacityAsync(record, runner, smokeServer, smokeScenario, primary, cancellationToken);
        record.Results.AddRange(capacity.Steps);
        await WriteScenarioReportsAsync(record.Results, capacity.Steps, record.Run, plan.ReportDirectory, cancellationToken);
    }

    // A capacity search, recorded under its layout and told on the console.
    private static async Task<CapacityResult> SearchCapacityAsync(RunRecord record, ScenarioRunner runner, ServerConnection server, LoadScenario scenario, CpuLayout layout, CancellationToken cancellationToken)
    {
        var searched = await runner.RunCapacityAsync(server, scenario, cancellationToken);
        var capacity = searched with
        {
            Steps = [.. searched.Steps.Select(step => step with { Layout = layout })],
            Sustained = searched.Sustained is null ? null : searched.Sustained with { Layout = layout },
        };
        record.Capacities.Add(capacity);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  CAPACITY {scenario.Name}: {capacity.SustainedRate:0.#} requests/s sustained; stopped at {capacity.Stop}"));
        return capacity;
    }

    // Each scenario's CSV and Markdown, rewritten after each run so that a run stopped early keeps what it finished.
    private static async Task WriteScenarioReportsAsync(IReadOnlyList<ScenarioResult> results, IReadOnlyList<ScenarioResult> done, RunDescription run, string directory, CancellationToken cancellationToken)
    {
        foreach (var repeated in RepeatedScenario.Group(results).Where(group => group.Outcome == ScenarioOutcome.Ran && group.Repetitions.Any(done.Contains)))
        {
            await CsvReport.WriteAsync(repeated, directory, cancellationToken);
            await MarkdownReport.WriteScenarioAsync(repeated, run, directory, cancellationToken);
        }
    }

    // The summary, the charts, the targets and README's table are the primary layout's, straight to the server; a second
    // layout, or the route through HAProxy, is compared with it in a section of its own. The targets are judged on the
    // closed model's runs, as they are stated; a --through-haproxy run judges its own target only, since the others are
    // stated for a server alone on its CPUs and these replicas share theirs with HAProxy.
    // The shared layout's closed-model runs beside a primary split one: the server with more than one core.
    private static (IReadOnlyList<ScenarioResult>, string)? MultiCore(RunPlan plan, IReadOnlyList<ScenarioResult> results) =>
        plan.Cpus.Compares && plan.Cpus.Primary == CpuLayout.Split && plan.Cpus.Available is { Count: > 1 }
            ? ([.. results.Where(result => result.Layout == CpuLayout.Shared && result.Route == ServerRoute.Straight && result.Rate is null)], plan.Cpus.Describe(CpuLayout.Shared))
            : null;

    private static async Task<RunReports> WriteReportsAsync(RunPlan plan, RunRecord record)
    {
        var (cpus, results, capacities) = (plan.Cpus, record.Results, record.Capacities);
        IReadOnlyList<ScenarioResult> main = [.. results.Where(result => result.Layout == cpus.Primary && result.Route == ServerRoute.Straight)];
        IReadOnlyList<CapacityResult> mainCapacities = [.. capacities.Where(capacity => capacity.Layout == cpus.Primary)];
        IReadOnlyList<ScenarioResult> closed = [.. main.Where(result => result.Rate is null)];
        IReadOnlyList<TargetVerdict> targets = plan.Options.ThroughHAProxy ? HAProxyTargets.Evaluate(results) :
        [
            .. DownloadTargets.Evaluate(closed), .. UploadTargets.Evaluate(closed, MultiCore(plan, results)), .. GrpcTargets.Evaluate(closed),
            .. CpuLayoutComparison.Evaluate(results, cpus),
        ];

        // A capacity search's latency chart shows each scenario at the rate it sustained, not every step.
        var charted = mainCapacities.Count == 0 ? main
            : [.. main.Where(result => result.Rate is null || mainCapacities.Any(capacity => capacity.Sustained == result))];
        var capacityChart = CapacityReport.Chart(mainCapacities);
        IReadOnlyList<BarChart> charts = [.. FormatCharts.For(charted), .. capacityChart is null ? Array.Empty<BarChart>() : [capacityChart]];
        foreach (var chart in charts)
            await File.WriteAllTextAsync(Path.Combine(plan.ReportDirectory, chart.FileName), chart.ToSvg().ToString(), CancellationToken.None);

        var capacitySection = mainCapacities.Count == 0 ? null : CapacityReport.Markdown(mainCapacities, plan.Options, capacityChart?.FileName);
        var comparison = CpuLayoutComparison.Section([.. results.Where(result => !capacities.Any(capacity => capacity.Steps.Contains(result)))], capacities, cpus)
            ?? HAProxyComparison.Section(results, cpus);
        var comparisonSection = comparison?.ToMarkdown();
        var sections = string.Join(Environment.NewLine, new[] { capacitySection, comparisonSection }.OfType<string>()) is { Length: > 0 } joined ? joined : null;
        var summary = MarkdownReport.Summary(record.Run, main, targets, record.Ending, charts) + (sections is null ? string.Empty : Environment.NewLine + sections);
        var summaryPath = Path.Combine(plan.ReportDirectory, MarkdownReport.SummaryFileName);
        await File.WriteAllTextAsync(summaryPath, summary, CancellationToken.None);
        var htmlPath = Path.Combine(plan.ReportDirectory, HtmlReport.FileName);
        await File.WriteAllTextAsync(htmlPath, HtmlReport.Render(record.Run, main, targets, record.Ending, charts, mainCapacities, comparison), CancellationToken.None);
        return new RunReports(main, mainCapacities, targets, charts.Select(chart => Path.Combine(plan.ReportDirectory, chart.FileName)).ToArray(), charts, sections, comparisonSection, summary, summaryPath, htmlPath);
    }

    // A live terminal gets tables; a log gets the Markdown summary.
    private static void ShowSummary(RunReports reports, string? ending)
    {
        Console.WriteLine();
        if (ProgressDisplay.IsLive)
        {
            foreach (var table in ConsoleSummary.Render(reports.Main, reports.MainCapacities, reports.Targets))
                AnsiConsole.Write(table);

            if (reports.ComparisonSection is not null)
                Console.WriteLine(reports.ComparisonSection);

            if (ending is not null)
                Console.WriteLine(ending);
        }
        else
        {
            Console.WriteLine(reports.Summary);
        }

        Console.WriteLine($"Summary: {reports.SummaryPath}");
        Console.WriteLine($"HTML report: {reports.HtmlPath}");
        if (reports.ChartPaths.Count > 0)
            Console.WriteLine($"Plots: {string.Join(", ", reports.ChartPaths)}");
    }

    // The generated Markdown under docs/results and README's table, for the runs that make them.
    private static async Task WriteResultsFileAsync(RunPlan plan, RunRecord record, RunReports reports)
    {
        if (!ResultsFile.ShouldWrite(plan.Options, reports.Main) || plan.RepositoryRoot is not { } repositoryRoot)
            return;

        var written = await ResultsFile.WriteAsync(repositoryRoot, plan.Options, record.Run, reports.Main, reports.Targets, record.Ending, reports.Charts, reports.Sections);
        Console.WriteLine($"Results (generated Markdown, in the repository): {written}");

        // README's table is of a server alone on its CPUs; a --through-haproxy run's replicas share theirs with HAProxy.
        if (!plan.Options.ThroughHAProxy && await ReadmeResults.UpdateAsync(repositoryRoot, reports.Main, Path.GetFileName(written), plan.Cpus.Placement(plan.Cpus.Primary)) is { } readme)
            Console.WriteLine($"README's results table: {readme}");
    }

    private static int Verdict(LoadOptions options, IReadOnlyList<ScenarioResult> results, IReadOnlyList<CapacityResult> capacities)
    {
        if (options.Smoke)
        {
            var problems = SmokeGate.Problems(results);
            foreach (var problem in problems)
                Console.WriteLine($"SMOKE FAILED: {problem}");

            Console.WriteLine(problems.Count == 0 ? "SMOKE PASSED" : $"SMOKE FAILED ({problems.Count} problem{(problems.Count == 1 ? string.Empty : "s")})");
            return problems.Count == 0 ? 0 : 1;
        }

        // A capacity search ends on a step that missed, failures included, by design: only its passing steps count here.
        var judged = options.Capacity ? results.Where(result => capacities.Any(capacity => capacity.Sustained == result) || result.Outcome == ScenarioOutcome.CouldNotRun) : results;
        var failed = judged.Where(result => result.HasFailures).Select(result => result.ReportName).Distinct().ToArray();
        if (failed.Length > 0)
            Console.WriteLine($"Requests failed in: {string.Join(", ", failed)}.");

        return failed.Length == 0 ? 0 : 1;
    }

    private static async Task<int> Failed(string message)
    {
        await Console.Error.WriteLineAsync(message);
        return 2;
    }

    internal static string? FindRepositoryRoot()
    {
        foreach (var start in new[] { AppContext.BaseDirectory, Environment.CurrentDirectory })
        {
            for (var directory = new DirectoryInfo(start); directory is not null; directory = directory.Parent)
            {
                if (File.Exists(Path.Combine(directory.FullName, "WebSerialization.sln")))
                    return directory.FullName;
            }
        }

        return null;
    }

    // What the reports step wrote, for the screen and the results file.
    private sealed record RunReports(IReadOnlyList<ScenarioResult> Main, IReadOnlyList<CapacityResult> MainCapacities, IReadOnlyList<TargetVerdict> Targets, IReadOnlyList<string> ChartPaths,
        IReadOnlyList<BarChart> Charts, string? Sections, string? ComparisonSection, string Summary, string SummaryPath, string HtmlPath);
}

/// <summary>What a run has measured so far, and how it ended: the reports are written from this even when it stopped early.</summary>
internal sealed class RunRecord(RunDescription run)
{
    public RunDescription Run { get; set; } = run;

    public List<ScenarioResult> Results { get; } = [];

    public List<CapacityResult> Capacities { get; } = [];

    /// <summary>Why the run stopped before its end, or null when it did not.</summary>
    public string? Ending { get; set; }

    /// <summary>Non-zero when the run stopped before its end.</summary>
    public int ExitCode { get; set; }
}
