using System.Globalization;
using System.Runtime.InteropServices;

namespace WebSerialization.Load;

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
            await Console.Error.WriteLineAsync(LoadOptions.Usage);
            return 2;
        }

        if (options.ShowHelp)
        {
            Console.WriteLine(LoadOptions.Usage);
            return 0;
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

        var runs = scenarios.Count * options.Copies.Count * options.Repetitions;
        var planned = (options.WarmUp + options.Duration) * runs;
        var serverStarts = options.Url is null ? (options.SharedServer ? 1 : runs) : 0;
        var timeout = options.OverallTimeout ?? planned + TimeoutMargin + (ServerStartAllowance * serverStarts);
        var reportDirectory = Path.Combine(
            options.ReportsDirectory ?? Path.Combine(repositoryRoot ?? Environment.CurrentDirectory, "reports"),
            $"load-{DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture)}{(options.Smoke ? "-smoke" : string.Empty)}");
        Directory.CreateDirectory(reportDirectory);
        var repetitions = options.Repetitions > 1 ? $" x {options.Repetitions} repetitions ({RunDescription.Create(args, options, string.Empty).RepetitionServer})" : string.Empty;
        Console.WriteLine($"Plan: {scenarios.Count} scenarios x copies {string.Join(',', options.Copies)}{repetitions}, warm-up {options.WarmUp.TotalSeconds:0.#} s + "
            + $"duration {options.Duration.TotalSeconds:0.#} s each: at least {planned:hh\\:mm\\:ss} of load in {runs} runs; the run stops itself after {timeout:hh\\:mm\\:ss}.");
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

        var serverPerScenario = serverStarts > 1;
        var run = RunDescription.Create(args, options, options.Url is null ? "not started" : $"already running at {options.Url}");
        var results = new List<ScenarioResult>();
        string? ending = null;
        var exitCode = 0;
        ServerConnection? shared = null;
        try
        {
            var assembly = options.Url is null
                ? await ApiServerProcess.BuildAsync(repositoryRoot!, !options.NoBuild, Path.Combine(reportDirectory, "build.log"), stop.Token)
                : null;

            async Task<ServerConnection> OpenAsync(string logName)
            {
                var process = assembly is null
                    ? null
                    : await ApiServerProcess.StartAsync(assembly, options.MemberCounts.Max(), options.ServerEnvironment, Path.Combine(reportDirectory, logName), stop.Token);
                running = process;
                try
                {
                    return await ServerConnection.OpenAsync(process, options.Url, stop.Token);
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

            if (!serverPerScenario)
            {
                shared = await OpenAsync("server.log");
                run = run with { Server = (options.Url is null ? "one process for the whole run, started by the runner (" + StartedServer(options) + "): " : string.Empty) + shared.Description };
                Console.WriteLine($"Server: {run.Server}");
            }

            var runner = new ScenarioRunner(new PayloadCache(options.RequestTimeout), options);

            // Repetitions are interleaved (every scenario once, then again) so that anything else slowing the machine
            // for a while hits one run of many scenarios rather than every run of one.
            for (var repetition = 1; repetition <= options.Repetitions; repetition++)
            {
                foreach (var scenario in scenarios)
                {
                    foreach (var copies in options.Copies)
                    {
                        var logSuffix = options.Repetitions > 1 ? $"-run{repetition}" : string.Empty;
                        var connection = shared ?? await OpenAsync($"server-{scenario.Name}-x{copies}{logSuffix}.log");
                        ScenarioResult result;
                        string? serverExit = null;
                        try
                        {
                            if (shared is null && results.Count == 0)
                            {
                                var per = options.Repetitions > 1 ? "scenario, copies and repetition" : "scenario and copies";
                                run = run with { Server = $"a fresh process per {per}, started by the runner ({StartedServer(options)}); the first: {connection.Description}" };
                            }

                            result = await runner.RunAsync(connection, scenario, copies, repetition, stop.Token);
                            if (connection.Process is { HasExited: true } process)
                            {
                                serverExit = process.DescribeExit() + " during the scenario";
                            }
                        }
                        catch (Exception exception) when (connection.Process is { HasExited: true } process && !stop.IsCancellationRequested)
                        {
                            serverExit = $"{process.DescribeExit()} ({exception.GetType().Name}: {exception.Message})";
                            result = new ScenarioResult(scenario, copies, ScenarioOutcome.CouldNotRun, serverExit) { Repetition = repetition };
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
                            result = result with { Outcome = ScenarioOutcome.CouldNotRun, Note = serverExit };
                            Console.WriteLine($"  COULD NOT RUN: {serverExit}");
                            if (shared is not null)
                            {
                                results.Add(result);
                                throw new InvalidOperationException(serverExit);
                            }
                        }

                        results.Add(result);

                        // Rewritten after each repetition, so that a run stopped early still has the repetitions it finished.
                        var repeated = RepeatedScenario.Group(results.Where(done => done.Scenario == scenario && done.Copies == copies)).Single();
                        if (repeated.Outcome == ScenarioOutcome.Ran)
                        {
                            await CsvReport.WriteAsync(repeated, reportDirectory, stop.Token);
                            await MarkdownReport.WriteScenarioAsync(repeated, run, reportDirectory, stop.Token);
                        }
                    }
                }
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
            if (shared is not null)
            {
                await shared.DisposeAsync();
            }

            running?.KillNow();
            AppDomain.CurrentDomain.ProcessExit -= OnProcessExit;
        }

        IReadOnlyList<TargetVerdict> targets = [.. DownloadTargets.Evaluate(results), .. GrpcTargets.Evaluate(results)];
        var charts = FormatCharts.For(results);
        foreach (var chart in charts)
        {
            await File.WriteAllTextAsync(Path.Combine(reportDirectory, chart.FileName), chart.ToSvg().ToString(), CancellationToken.None);
        }

        var summary = MarkdownReport.Summary(run, results, targets, ending, charts);
        var summaryPath = Path.Combine(reportDirectory, MarkdownReport.SummaryFileName);
        await File.WriteAllTextAsync(summaryPath, summary, CancellationToken.None);
        var htmlPath = Path.Combine(reportDirectory, HtmlReport.FileName);
        await File.WriteAllTextAsync(htmlPath, HtmlReport.Render(run, results, targets, ending, charts), CancellationToken.None);
        Console.WriteLine();
        Console.WriteLine(summary);
        Console.WriteLine($"Summary: {summaryPath}");
        Console.WriteLine($"HTML report: {htmlPath}");
        if (charts.Count > 0)
        {
            Console.WriteLine($"Plots: {string.Join(", ", charts.Select(chart => Path.Combine(reportDirectory, chart.FileName)))}");
        }
        return exitCode != 0 ? exitCode : Verdict(options, results);
    }

    private static int Verdict(LoadOptions options, IReadOnlyList<ScenarioResult> results)
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

        var failed = results.Where(result => result.HasFailures).Select(result => result.ReportName).Distinct().ToArray();
        if (failed.Length > 0)
        {
            Console.WriteLine($"Requests failed in: {string.Join(", ", failed)}.");
        }

        return failed.Length == 0 ? 0 : 1;
    }

    private static string StartedServer(LoadOptions options) =>
        $"Release build of src/Api on a free 127.0.0.1 port, ASPNETCORE_ENVIRONMENT=Production, Diagnostics__RuntimeEndpoint=true, "
        + $"Organization__MemberCount={options.MemberCounts.Max().ToString(CultureInfo.InvariantCulture)}"
        + string.Concat(options.ServerEnvironment.Select(variable => $", {variable.Key}={variable.Value}"));

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
