using System.Globalization;
using System.Runtime.InteropServices;
using Spectre.Console;
using BarChart = WebSerialization.Load.Reports.BarChart;
using WebSerialization.Load.Cpus;
using WebSerialization.Tests.Processes;

namespace WebSerialization.Load.Running;

/// <summary>
/// A whole load run: start (or reach) the server, run every selected scenario at every number of copies, write the
/// reports, judge the targets, stop the server. Bounded by an overall timeout; Ctrl+C stops it cleanly.
/// </summary>
public static class LoadRun
{
    private static readonly TimeSpan TimeoutMargin = TimeSpan.FromMinutes(5);

    // Generating 1,000,000 members and starting takes a few seconds; this is a bound for the default timeout, not an estimate.
    private static readonly TimeSpan ServerStartAllowance = TimeSpan.FromSeconds(15);

    public static async Task<int> RunAsync(string[] args)
    {
        LoadOptions options;
        try
        {
            options = LoadOptions.Parse(args);
        }
        catch (ArgumentException exception)
        {
            await Console.Error.WriteLineAsync(exception.Message);
            await Console.Error.WriteLineAsync("Use --help for every option and its default.");
            return 2;
        }

        if (options.ShowHelp)
        {
            Console.Write(LoadOptions.Usage);
            return 0;
        }

        if (options.LogCost)
        {
            return FindRepositoryRoot() is { } root
                ? await LogCost.LogCostRun.RunAsync(args, options, root)
                : await Failed("Cannot find WebSerialization.sln above this program or the current folder, so cannot start the servers.");
        }

        var scenarios = LoadScenario.Select(options);
        options = BaselineScenarios.SwitchOn(options, scenarios);
        var repositoryRoot = FindRepositoryRoot();
        if (scenarios.Count == 0 || (options.Url is null && repositoryRoot is null))
        {
            await Console.Error.WriteLineAsync(scenarios.Count == 0
                ? $"No scenario name starts with any of: {string.Join(", ", options.ScenarioFilters)}. Scenario names: {string.Join(", ", LoadScenario.Select(options with { ScenarioFilters = [] }).Select(s => s.Name))}."
                : "Cannot find WebSerialization.sln above this program or the current folder, so cannot start the API: pass --url.");
            return 2;
        }

        CpuPlan cpus;
        try
        {
            cpus = CpuPlan.Resolve(options, CpuAffinity.IsSupported ? CpuAffinity.OfProcess(Environment.ProcessId) : null);
        }
        catch (ArgumentException exception)
        {
            await Console.Error.WriteLineAsync(exception.Message);
            return 2;
        }

        var loads = Loads(options);
        var runs = scenarios.Count * loads.Count * options.Repetitions * cpus.Layouts.Count;
        var capacitySteps = options.Capacity ? CapacitySearch.From(options).Rates().Count() : 1;
        var planned = (options.WarmUp + (options.Duration * capacitySteps)) * runs;
        var serverStarts = options.Url is null ? (options.SharedServer ? cpus.Layouts.Count : runs) : 0;
        var timeout = options.OverallTimeout ?? planned + TimeoutMargin + (ServerStartAllowance * serverStarts);
        var reportDirectory = Path.Combine(
            options.ReportsDirectory ?? Path.Combine(repositoryRoot ?? Environment.CurrentDirectory, "reports"),
            $"load-{DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture)}{(options.Smoke ? "-smoke" : string.Empty)}");
        Directory.CreateDirectory(reportDirectory);
        var repetitions = options.Repetitions > 1 ? $" x {options.Repetitions} repetitions ({RunDescription.Create(args, options, string.Empty, string.Empty).RepetitionServer})" : string.Empty;
        var load = options.Capacity ? $"a capacity search of up to {capacitySteps} steps" : options.Rates.Count > 0 ? $"rates {string.Join(',', options.Rates)}/s" : $"copies {string.Join(',', options.Copies)}";
        Console.WriteLine($"Plan ({options.Mode}): {scenarios.Count} scenarios x {load}{repetitions}, warm-up {options.WarmUp.TotalSeconds:0.#} s + "
            + $"duration {options.Duration.TotalSeconds:0.#} s each: at most {planned:hh\\:mm\\:ss} of load in {runs} runs; the run stops itself after {timeout:hh\\:mm\\:ss}.");
        Console.WriteLine($"CPUs: {cpus.Describe()}.");
        Console.WriteLine($"Reports: {reportDirectory}");

        using var timeoutSource = new CancellationTokenSource(timeout);
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(timeoutSource.Token);
        // Ctrl+C, and a CI job's or a terminal's end, stop the run like the timeout does: the server is killed and the
        // summary written. Without handling SIGTERM the runtime would exit and leave the server running.
        string? interruptedBy = null;
        void Interrupt(PosixSignalContext context)
        {
            context.Cancel = true;
            interruptedBy ??= context.Signal.ToString();
            stop.Cancel();
        }

        using var onInterrupt = PosixSignalRegistration.Create(PosixSignal.SIGINT, Interrupt);
        using var onTerminate = PosixSignalRegistration.Create(PosixSignal.SIGTERM, Interrupt);
        using var onHangUp = PosixSignalRegistration.Create(PosixSignal.SIGHUP, Interrupt);
        ApiServerProcess? running = null;
        void OnProcessExit(object? sender, EventArgs e) => running?.KillNow();
        AppDomain.CurrentDomain.ProcessExit += OnProcessExit;

        var serverPerScenario = options.Url is null && !options.SharedServer;
        var run = RunDescription.Create(args, options, cpus.Describe(), options.Url is null ? "not started" : $"already running at {options.Url}");
        var results = new List<ScenarioResult>();
        var capacities = new List<CapacityResult>();
        string? ending = null;
        var exitCode = 0;
        var sharedServers = new Dictionary<CpuLayout, ServerConnection>();
        var clientCpus = cpus.Available;
        try
        {
            var assembly = options.Url is null
                ? await ApiServerProcess.BuildAsync(repositoryRoot!, !options.NoBuild, Path.Combine(reportDirectory, "build.log"), stop.Token)
                : null;

            // The server of a layout, started on its CPUs, with the runner moved to the client's first, so that the
            // server never shares a CPU with the client in a split, not even while it starts.
            async Task<ServerConnection> OpenAsync(string logName, CpuLayout layout)
            {
                if (cpus.ClientCpus(layout) is { } client && !client.Equals(clientCpus))
                {
                    await CpuAffinity.PinThisProcessAsync(client, stop.Token);
                    clientCpus = client;
                }

                var serverCpus = cpus.ServerCpus(layout);
                var process = assembly is null
                    ? null
                    : await ApiServerProcess.StartAsync(assembly, options.MemberCounts.Max(), options.ServerEnvironment, Path.Combine(reportDirectory, logName), serverCpus, stop.Token);
                running = process;
                try
                {
                    var connection = await ServerConnection.OpenAsync(process, options.Url, stop.Token);
                    CheckCpus(connection, serverCpus, options);
                    return connection;
                }
                catch
                {
                    if (process is not null)
                    {
                        await process.DisposeAsync();
                    }

                    throw;
                }
            }

            // A server for the whole run is one per layout, each started on the layout's CPUs when the run first needs it.
            async Task<ServerConnection> SharedServerAsync(CpuLayout layout)
            {
                if (sharedServers.TryGetValue(layout, out var connection))
                {
                    if (cpus.ClientCpus(layout) is { } client && !client.Equals(clientCpus))
                    {
                        await CpuAffinity.PinThisProcessAsync(client, stop.Token);
                        clientCpus = client;
                    }

                    return connection;
                }

                var suffix = cpus.Compares ? $"-{CpuPlan.Name(layout)}" : string.Empty;
                connection = sharedServers[layout] = await OpenAsync($"server{suffix}.log", layout);
                var described = (options.Url is null ? "one process for the whole run" + (cpus.Compares ? " per CPU layout" : string.Empty) + ", started by the runner (" + StartedServer(options) + "): " : string.Empty)
                    + (cpus.Compares ? $"{CpuPlan.Name(layout)}: " : string.Empty) + connection.Description;
                run = run with { Server = sharedServers.Count == 1 ? described : $"{run.Server}; {CpuPlan.Name(layout)}: {connection.Description}" };
                Console.WriteLine($"Server: {run.Server}");
                return connection;
            }

            if (!serverPerScenario)
            {
                await SharedServerAsync(cpus.Primary);
            }

            var runner = new ScenarioRunner(new PayloadCache(options.RequestTimeout), options);

            // Repetitions are interleaved (every scenario once, then again) so that anything else slowing the machine
            // for a while hits one run of many scenarios rather than every run of one.
            for (var repetition = 1; repetition <= options.Repetitions; repetition++)
            {
                foreach (var scenario in scenarios)
                {
                    foreach (var ((copies, rate), layout) in loads.SelectMany(load => cpus.Layouts.Select(layout => (load, layout))))
                    {
                        var loadName = rate is { } perSecond ? string.Create(CultureInfo.InvariantCulture, $"r{perSecond:0.#}") : options.Capacity ? "capacity" : $"x{copies}";
                        var logSuffix = (options.Repetitions > 1 ? $"-run{repetition}" : string.Empty) + (cpus.Compares ? $"-{CpuPlan.Name(layout)}" : string.Empty);
                        var shared = serverPerScenario ? null : await SharedServerAsync(layout);
                        var connection = shared ?? await OpenAsync($"server-{scenario.Name}-{loadName}{logSuffix}.log", layout);
                        IReadOnlyList<ScenarioResult> done;
                        string? serverExit = null;
                        try
                        {
                            if (shared is null && results.Count == 0)
                            {
                                var per = (options.Repetitions > 1 ? "scenario, load and repetition" : "scenario and load") + (cpus.Compares ? " and CPU layout" : string.Empty);
                                run = run with { Server = $"a fresh process per {per}, started by the runner ({StartedServer(options)}); the first: {connection.Description}" };
                            }

                            if (options.Capacity)
                            {
                                var capacity = await runner.RunCapacityAsync(connection, scenario, stop.Token);
                                capacity = capacity with { Steps = [.. capacity.Steps.Select(step => step with { Layout = layout })], Sustained = capacity.Sustained is null ? null : capacity.Sustained with { Layout = layout } };
                                capacities.Add(capacity);
                                done = capacity.Steps;
                                Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  CAPACITY {scenario.Name}: {capacity.SustainedRate:0.#} requests/s sustained; stopped at {capacity.Stop}"));
                            }
                            else
                            {
                                done = [await runner.RunAsync(connection, scenario, copies, rate, repetition, stop.Token) with { Layout = layout }];
                            }

                            if (connection.Process is { HasExited: true } process)
                            {
                                serverExit = process.DescribeExit() + " during the scenario";
                            }
                        }
                        catch (Exception exception) when (connection.Process is { HasExited: true } process && !stop.IsCancellationRequested)
                        {
                            serverExit = $"{process.DescribeExit()} ({exception.GetType().Name}: {exception.Message})";
                            done = [new ScenarioResult(scenario, copies, ScenarioOutcome.CouldNotRun, serverExit) { Repetition = repetition, Rate = rate, Layout = layout }];
                        }
                        finally
                        {
                            if (shared is null)
                            {
                                await connection.DisposeAsync();
                            }
                        }

                        if (serverExit is not null)
                        {
                            // Something outside the runner stopped the server. A server per scenario means the next one starts
                            // fresh; a shared one is gone for good.
                            done = [.. done.Select(result => result with { Outcome = ScenarioOutcome.CouldNotRun, Note = serverExit })];
                            Console.WriteLine($"  COULD NOT RUN: {serverExit}");
                            if (shared is not null)
                            {
                                results.AddRange(done);
                                throw new InvalidOperationException(serverExit);
                            }
                        }

                        results.AddRange(done);
                        await WriteScenarioReportsAsync(results, done, run, LayoutDirectory(reportDirectory, cpus, layout), stop.Token);
                    }
                }
            }

            if (options.Smoke)
            {
                // The smoke's other two load models, small and short: one open-model scenario and one capacity search.
                var smokeScenario = scenarios.First(scenario => scenario.Kind == ScenarioKind.Download && scenario.MemberCount == LoadOptions.SmokeMemberCount);
                var smokeServer = await SharedServerAsync(cpus.Primary);
                var open = await runner.RunAsync(smokeServer, smokeScenario, 1, LoadOptions.SmokeRate, 1, stop.Token) with { Layout = cpus.Primary };
                results.Add(open);
                await WriteScenarioReportsAsync(results, [open], run, reportDirectory, stop.Token);
                var capacity = await runner.RunCapacityAsync(smokeServer, smokeScenario, stop.Token);
                capacity = capacity with { Steps = [.. capacity.Steps.Select(step => step with { Layout = cpus.Primary })], Sustained = capacity.Sustained is null ? null : capacity.Sustained with { Layout = cpus.Primary } };
                capacities.Add(capacity);
                results.AddRange(capacity.Steps);
                await WriteScenarioReportsAsync(results, capacity.Steps, run, reportDirectory, stop.Token);
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  CAPACITY {smokeScenario.Name}: {capacity.SustainedRate:0.#} requests/s sustained; stopped at {capacity.Stop}"));
            }
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            ending = interruptedBy is not null ? $"Interrupted ({interruptedBy}): the summary covers the scenarios that finished."
                : $"Stopped by the overall timeout ({timeout:hh\\:mm\\:ss}): the summary covers the scenarios that finished.";
            exitCode = interruptedBy is not null ? 130 : 2;
        }
        catch (Exception exception) when (exception is InvalidOperationException or TimeoutException or HttpRequestException or IOException)
        {
            ending = $"Stopped: {exception.Message}";
            exitCode = 2;
        }
        finally
        {
            foreach (var server in sharedServers.Values)
            {
                await server.DisposeAsync();
            }

            running?.KillNow();
            AppDomain.CurrentDomain.ProcessExit -= OnProcessExit;
        }

        // The summary, the charts, the targets and README's table are the primary layout's; a second layout is compared
        // with it in a section of its own.
        IReadOnlyList<ScenarioResult> main = [.. results.Where(result => result.Layout == cpus.Primary)];
        IReadOnlyList<CapacityResult> mainCapacities = [.. capacities.Where(capacity => capacity.Layout == cpus.Primary)];

        // The targets are judged on the closed model's runs, as they are stated.
        IReadOnlyList<ScenarioResult> closed = [.. main.Where(result => result.Rate is null)];
        IReadOnlyList<TargetVerdict> targets =
        [
            .. DownloadTargets.Evaluate(closed), .. UploadTargets.Evaluate(closed), .. GrpcTargets.Evaluate(closed),
            .. CpuLayoutComparison.Evaluate(results, cpus),
        ];

        // A capacity search's latency chart shows each scenario at the rate it sustained, not every step.
        var charted = mainCapacities.Count == 0 ? main
            : [.. main.Where(result => result.Rate is null || mainCapacities.Any(capacity => capacity.Sustained == result))];
        var capacityChart = CapacityReport.Chart(mainCapacities);
        IReadOnlyList<BarChart> charts = [.. FormatCharts.For(charted), .. capacityChart is null ? Array.Empty<BarChart>() : [capacityChart]];
        foreach (var chart in charts)
        {
            await File.WriteAllTextAsync(Path.Combine(reportDirectory, chart.FileName), chart.ToSvg().ToString(), CancellationToken.None);
        }

        var capacitySection = mainCapacities.Count == 0 ? null : CapacityReport.Markdown(mainCapacities, options, capacityChart?.FileName);
        var layouts = CpuLayoutComparison.Section([.. results.Where(result => !capacities.Any(capacity => capacity.Steps.Contains(result)))], capacities, cpus);
        var layoutSection = layouts is null ? null : CpuLayoutComparison.Markdown(layouts);
        var sections = string.Join(Environment.NewLine, new[] { capacitySection, layoutSection }.OfType<string>()) is { Length: > 0 } joined ? joined : null;
        var summary = MarkdownReport.Summary(run, main, targets, ending, charts) + (sections is null ? string.Empty : Environment.NewLine + sections);
        var summaryPath = Path.Combine(reportDirectory, MarkdownReport.SummaryFileName);
        await File.WriteAllTextAsync(summaryPath, summary, CancellationToken.None);
        var htmlPath = Path.Combine(reportDirectory, HtmlReport.FileName);
        await File.WriteAllTextAsync(htmlPath, HtmlReport.Render(run, main, targets, ending, charts, mainCapacities, layouts), CancellationToken.None);
        Console.WriteLine();
        if (ProgressDisplay.IsLive)
        {
            foreach (var table in ConsoleSummary.Render(main, mainCapacities, targets))
            {
                AnsiConsole.Write(table);
            }

            if (layoutSection is not null)
            {
                Console.WriteLine(layoutSection);
            }

            if (ending is not null)
            {
                Console.WriteLine(ending);
            }
        }
        else
        {
            Console.WriteLine(summary);
        }

        Console.WriteLine($"Summary: {summaryPath}");
        Console.WriteLine($"HTML report: {htmlPath}");
        if (charts.Count > 0)
        {
            Console.WriteLine($"Plots: {string.Join(", ", charts.Select(chart => Path.Combine(reportDirectory, chart.FileName)))}");
        }

        if (ResultsFile.ShouldWrite(options, main) && repositoryRoot is not null)
        {
            var written = await ResultsFile.WriteAsync(repositoryRoot, options, run, main, targets, ending, charts, sections);
            Console.WriteLine($"Results (generated Markdown, in the repository): {written}");
            if (await ReadmeResults.UpdateAsync(repositoryRoot, main, Path.GetFileName(written), cpus.Placement(cpus.Primary)) is { } readme)
            {
                Console.WriteLine($"README's results table: {readme}");
            }
        }

        return exitCode != 0 ? exitCode : Verdict(options, results, capacities);
    }

    // Where the scenarios' loads come from: one capacity search, the open model's rates, or the closed model's copies.
    private static IReadOnlyList<(int Copies, double? Rate)> Loads(LoadOptions options) =>
        options.Capacity ? [(1, null)]
        : options.Rates.Count > 0 ? [.. options.Rates.Select(rate => (1, (double?)rate))]
        : [.. options.Copies.Select(copies => (copies, (double?)null))];

    // Each scenario's CSV and Markdown, rewritten after each run so that a run stopped early keeps what it finished.
    private static async Task WriteScenarioReportsAsync(IReadOnlyList<ScenarioResult> results, IReadOnlyList<ScenarioResult> done, RunDescription run, string directory, CancellationToken cancellationToken)
    {
        foreach (var repeated in RepeatedScenario.Group(results).Where(group => group.Repetitions.Any(done.Contains)))
        {
            if (repeated.Outcome == ScenarioOutcome.Ran)
            {
                await CsvReport.WriteAsync(repeated, directory, cancellationToken);
                await MarkdownReport.WriteScenarioAsync(repeated, run, directory, cancellationToken);
            }
        }
    }

    private static int Verdict(LoadOptions options, IReadOnlyList<ScenarioResult> results, IReadOnlyList<CapacityResult> capacities)
    {
        if (options.Smoke)
        {
            var problems = SmokeGate.Problems(results);
            foreach (var problem in problems)
            {
                Console.WriteLine($"SMOKE FAILED: {problem}");
            }

            Console.WriteLine(problems.Count == 0 ? "SMOKE PASSED" : $"SMOKE FAILED ({problems.Count} problem{(problems.Count == 1 ? string.Empty : "s")})");
            return problems.Count == 0 ? 0 : 1;
        }

        // A capacity search ends on a step that missed, failures included, by design: only its passing steps count here.
        var judged = options.Capacity ? results.Where(result => capacities.Any(capacity => capacity.Sustained == result) || result.Outcome == ScenarioOutcome.CouldNotRun) : results;
        var failed = judged.Where(result => result.HasFailures).Select(result => result.ReportName).Distinct().ToArray();
        if (failed.Length > 0)
        {
            Console.WriteLine($"Requests failed in: {string.Join(", ", failed)}.");
        }

        return failed.Length == 0 ? 0 : 1;
    }

    // A second layout's scenario reports go to a folder of their own, so that both keep the scenario's file names.
    private static string LayoutDirectory(string reportDirectory, CpuPlan cpus, CpuLayout layout)
    {
        if (layout == cpus.Primary)
        {
            return reportDirectory;
        }

        var directory = Path.Combine(reportDirectory, CpuPlan.Name(layout));
        Directory.CreateDirectory(directory);
        return directory;
    }

    // The server the runner started must be where the plan put it, and see that many processors: a figure measured
    // elsewhere would be reported under the wrong CPUs.
    private static void CheckCpus(ServerConnection connection, CpuSet? planned, LoadOptions options)
    {
        if (planned is null || connection.Process is null)
        {
            return;
        }

        if (connection.Cpus is { } actual && !actual.Equals(planned))
        {
            throw new InvalidOperationException($"The API (pid {connection.Process.ProcessId}) may run on {actual.Describe()}, not on {planned.Describe()} as planned.");
        }

        if (connection.ProcessorCount is { } seen && seen != planned.Count && !options.ServerEnvironment.ContainsKey("DOTNET_PROCESSOR_COUNT"))
        {
            throw new InvalidOperationException($"The API (pid {connection.Process.ProcessId}) sees {seen} processors on {planned.Describe()}.");
        }
    }

    private static string StartedServer(LoadOptions options) =>
        $"Release build of src/Api on a free 127.0.0.1 port, ASPNETCORE_ENVIRONMENT=Production, Diagnostics__RuntimeEndpoint=true, Metrics__Enabled=true, "
        + $"Organization__MemberCount={options.MemberCounts.Max().ToString(CultureInfo.InvariantCulture)}"
        + string.Concat(options.ServerEnvironment.Select(variable => $", {variable.Key}={variable.Value}"));

    private static async Task<int> Failed(string message)
    {
        await Console.Error.WriteLineAsync(message);
        return 2;
    }

    private static string? FindRepositoryRoot()
    {
        foreach (var start in new[] { AppContext.BaseDirectory, Environment.CurrentDirectory })
        {
            for (var directory = new DirectoryInfo(start); directory is not null; directory = directory.Parent)
            {
                if (File.Exists(Path.Combine(directory.FullName, "WebSerialization.sln")))
                {
                    return directory.FullName;
                }
            }
        }

        return null;
    }
}
