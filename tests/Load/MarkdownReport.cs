using System.Globalization;
using System.Text;

namespace WebSerialization.Load;

/// <summary>The Markdown reports: one per scenario with every statistic, and the run's summary with the targets.</summary>
public static class MarkdownReport
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    public static async Task WriteScenarioAsync(ScenarioResult result, RunDescription run, string directory, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(run);
        var md = new StringBuilder();
        var options = run.Options;
        md.AppendLine(Invariant, $"# {result.ReportName}");
        md.AppendLine();
        md.AppendLine(Invariant, $"`{result.Scenario.Description}`: copies {result.Copies} (closed model), warm-up {options.WarmUp.TotalSeconds:0.#} s "
            + $"({result.WarmUpRequests} requests, {result.WarmUpFailures} failed, not measured), duration {options.Duration.TotalSeconds:0.#} s "
            + $"(the measured phase took {result.Elapsed.TotalSeconds:0.00} s: requests in flight at the end finish). {run.StartedAt:yyyy-MM-dd HH:mm} UTC, {run.Machine}.");
        md.AppendLine();
        if (result.Note is not null)
        {
            md.AppendLine(Invariant, $"**{result.Outcome}**: {result.Note}");
            md.AppendLine();
        }

        if (result.Server is not null)
        {
            md.AppendLine(Invariant, $"Server: {result.Server}.");
            md.AppendLine();
        }

        md.AppendLine("| Measure (ms) | n | min | mean | p50 | p95 | p99 | max |");
        md.AppendLine("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        AppendDistribution(md, "Time to first byte", result.TimeToFirstByte);
        AppendDistribution(md, "Time to last byte (latency)", result.Latency);
        md.AppendLine();

        var cost = result.ServerCost;
        md.AppendLine("| | |");
        md.AppendLine("| --- | --- |");
        md.AppendLine(Invariant, $"| Requests | {result.Succeeded.Count()} succeeded, {result.FailedCount} failed |");
        md.AppendLine(Invariant, $"| Response body, mean | {Megabytes(result.ResponseBytes, "0.000")} MB ({ConsoleReport.Format(result.ResponseBytes, "N0")} bytes) |");
        md.AppendLine(Invariant, $"| Request body | {Megabytes(result.RequestBytes, "0.000")} MB |");
        md.AppendLine(Invariant, $"| Throughput | {ConsoleReport.Format(result.MegabytesPerSecond)} MB/s of bodies (sent + received), {ConsoleReport.Format(result.RequestsPerSecond, "0.00")} requests/s |");
        if (cost is null)
        {
            md.AppendLine("| Server counters | not available (the server's /diagnostics/runtime is off) |");
        }
        else
        {
            md.AppendLine(Invariant, $"| Server: requests served | {cost.RequestsServed} (the client sent {result.Samples.Count}) |");
            md.AppendLine(Invariant, $"| Server: allocated per request | {Megabytes(cost.AllocatedBytesPerRequest, "0.0000")} MB ({ConsoleReport.Format(cost.AllocatedBytesPerRequest, "N0")} bytes); "
                + $"{Megabytes(cost.AllocatedBytes, "0.0")} MB in all, after subtracting {cost.DiagnosticsCalls} counter reads of {cost.DiagnosticsCallBytes:N0} bytes each |");
            md.AppendLine(Invariant, $"| Server: GCs during the measured phase | gen0 {cost.Gen0Collections}, gen1 {cost.Gen1Collections}, gen2 {cost.Gen2Collections}; pauses {cost.PauseMilliseconds:0.0} ms |");
        }

        if (result.PeakWorkingSet > 0)
        {
            md.AppendLine(Invariant, $"| Server working set | idle at run start {Megabytes(result.BaselineWorkingSet)} MB, at scenario start {Megabytes(result.StartWorkingSet)} MB, "
                + $"peak {Megabytes(result.PeakWorkingSet)} MB ({result.WorkingSetRaise / Units.BytesPerMegabyte:+0.0;-0.0} MB over idle); {result.PeakMethod} |");
        }

        if (result.Scenario.MemberCount == SeedArticleFigures.MemberCount)
        {
            var seed = SeedArticleFigures.For(result.Scenario.Format.Format);
            md.AppendLine(Invariant, $"| Seed article ({seed.Serializer}) | {seed.SizeMegabytes:0.00} MB, serialized in {seed.SerializeMilliseconds:0} ms (console app, byte[] in memory) |");
        }

        var failures = result.FailureReasons.ToArray();
        if (failures.Length > 0)
        {
            md.AppendLine();
            md.AppendLine("Failures:");
            foreach (var (error, count) in failures)
            {
                md.AppendLine(Invariant, $"- {count} x {error}");
            }
        }

        md.AppendLine();
        md.AppendLine(Invariant, $"Every sample: {result.ReportName}.csv. MB = 2^20 bytes.");
        await File.WriteAllTextAsync(Path.Combine(directory, result.ReportName + ".md"), md.ToString(), cancellationToken);
    }

    /// <summary>The run's summary: one row per scenario, the targets, what was skipped and what failed.</summary>
    public static string Summary(RunDescription run, IReadOnlyList<ScenarioResult> results, IReadOnlyList<TargetVerdict> targets, string? ending)
    {
        ArgumentNullException.ThrowIfNull(run);
        ArgumentNullException.ThrowIfNull(results);
        ArgumentNullException.ThrowIfNull(targets);
        var md = new StringBuilder();
        md.AppendLine(Invariant, $"# Load run {run.StartedAt:yyyy-MM-dd HH:mm} UTC{(run.Options.Smoke ? " (smoke)" : string.Empty)}");
        md.AppendLine();
        md.AppendLine(Invariant, $"- Command: `{run.CommandLine}`");
        md.AppendLine(Invariant, $"- Machine: {run.Machine}; the server and the load client share it.");
        md.AppendLine(Invariant, $"- Server: {run.Server}");
        md.AppendLine(Invariant, $"- Plan: {run.Plan}");
        if (ending is not null)
        {
            md.AppendLine(Invariant, $"- **{ending}**");
        }

        md.AppendLine();
        md.AppendLine("| Scenario | Format | Copies | OK | Failed | Response MB | TTFB p50 ms | p50 ms | p95 ms | p99 ms | MB/s | Server MB alloc/request | Gen2 GCs | Peak WS MB (over idle) | Seed size MB | Seed serialize ms |");
        md.AppendLine("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        foreach (var result in results.Where(result => result.Outcome != ScenarioOutcome.Skipped))
        {
            var latency = result.Latency;
            var seed = result.Scenario.MemberCount == SeedArticleFigures.MemberCount ? SeedArticleFigures.For(result.Scenario.Format.Format) : null;
            md.AppendLine(Invariant,
                $"| {result.Scenario.Name} | {result.Scenario.Format.Key} | {result.Copies} | {result.Succeeded.Count()} | {result.FailedCount + result.WarmUpFailures} | "
                + $"{Megabytes(result.ResponseBytes, "0.00")} | {ConsoleReport.Format(result.TimeToFirstByte?.P50, "0")} | "
                + $"{ConsoleReport.Format(latency?.P50, "0")} | {ConsoleReport.Format(latency?.P95, "0")} | {ConsoleReport.Format(latency?.P99, "0")} | "
                + $"{ConsoleReport.Format(result.MegabytesPerSecond)} | {Megabytes(result.ServerCost?.AllocatedBytesPerRequest, "0.000")} | "
                + $"{result.ServerCost?.Gen2Collections.ToString(Invariant) ?? "-"} | "
                + $"{(result.PeakWorkingSet > 0 ? string.Create(Invariant, $"{Megabytes(result.PeakWorkingSet)} ({result.WorkingSetRaise / Units.BytesPerMegabyte:+0;-0})") : "-")} | "
                + $"{ConsoleReport.Format(seed?.SizeMegabytes, "0.00")} | {ConsoleReport.Format(seed?.SerializeMilliseconds, "0")} |");
        }

        md.AppendLine();
        md.AppendLine("OK and Failed count measured requests (failed warm-up requests are added to Failed). Latency is time to last byte; TTFB is time to the first body byte; "
            + "MB/s is body bytes sent plus received per second of the measured phase, all copies together. Server MB alloc/request is the server's "
            + "GC.GetTotalAllocatedBytes(precise) difference over the requests it served, less its /diagnostics/runtime reads. "
            + "Peak WS is the server's largest working set during the scenario (warm-up included), and in brackets how far above its idle working set at the start of the run. "
            + "MB = 2^20 bytes.");
        md.AppendLine();
        md.AppendLine(SeedArticleFigures.Caption);

        md.AppendLine();
        md.AppendLine("## Targets");
        md.AppendLine();
        md.AppendLine("| Target | Measured | Verdict |");
        md.AppendLine("| --- | --- | --- |");
        foreach (var verdict in targets)
        {
            md.AppendLine(Invariant, $"| {verdict.Target} | {verdict.Measured} | **{verdict.Verdict}** |");
        }

        var skipped = results.Where(result => result.Outcome == ScenarioOutcome.Skipped).ToArray();
        if (skipped.Length > 0)
        {
            md.AppendLine();
            md.AppendLine("## Skipped (endpoint not on this server)");
            md.AppendLine();
            foreach (var result in skipped)
            {
                md.AppendLine(Invariant, $"- {result.ReportName}: {result.Note}");
            }
        }

        var failed = results.Where(result => result.HasFailures).ToArray();
        if (failed.Length > 0)
        {
            md.AppendLine();
            md.AppendLine("## Failures");
            md.AppendLine();
            foreach (var result in failed)
            {
                var reasons = result.FailureReasons.Select(reason => $"{reason.Count} x {reason.Error}").ToList();
                if (result.Note is not null)
                {
                    reasons.Insert(0, result.Note);
                }

                md.AppendLine(Invariant, $"- {result.ReportName}: {string.Join("; ", reasons)}");
            }
        }

        return md.ToString();
    }

    private static void AppendDistribution(StringBuilder md, string name, LatencyDistribution? distribution)
    {
        if (distribution is null)
        {
            md.AppendLine(Invariant, $"| {name} | 0 | - | - | - | - | - | - |");
            return;
        }

        md.AppendLine(Invariant, $"| {name} | {distribution.Count} | {distribution.Min:0.0} | {distribution.Mean:0.0} | {distribution.P50:0.0} | {distribution.P95:0.0} | {distribution.P99:0.0} | {distribution.Max:0.0} |");
    }

    private static string Megabytes(double? bytes, string format = "0.0") => ConsoleReport.Format(bytes / Units.BytesPerMegabyte, format);
}
