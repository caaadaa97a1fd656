using System.Runtime.InteropServices;

namespace WebSerialization.Load.Reports;

/// <summary>What a run was, for the head of its summary: when, where, on which CPUs, how, against what.</summary>
/// <param name="Cpus">Which CPUs the server and the load client ran on (<see cref="Cpus.CpuPlan.Describe()"/>).</param>
public sealed record RunDescription(DateTimeOffset StartedAt, string CommandLine, string Machine, string Cpus, string Server, LoadOptions Options)
{
    public static RunDescription Create(IReadOnlyList<string> args, LoadOptions options, string cpus, string server) => new(
        DateTimeOffset.UtcNow,
        $"dotnet run -c Release --project tests/Load{(args.Count == 0 ? string.Empty : " -- " + string.Join(' ', args))}",
        string.Create(CultureInfo.InvariantCulture, $"{Environment.ProcessorCount} cores ({CpuModel()}), {ResultsFile.TotalMemoryBytes() / (double)(1L << 30):0.#} GB memory, {RuntimeInformation.OSDescription}, {RuntimeInformation.FrameworkDescription}{LoadAverage()}"),
        cpus,
        server,
        options);

    /// <summary>What other processes used of the machine during the run (<see cref="OtherProcessesWatch"/>), or null when not watched.</summary>
    public string? OtherWork { get; init; }

    /// <summary>How fast each CPU ran during the run (<see cref="CpuSpeedWatch"/>), or null when not probed.</summary>
    public string? CpuSpeed { get; init; }

    public string Plan =>
        string.Create(CultureInfo.InvariantCulture, $"warm-up {Options.WarmUp.TotalSeconds:0.#} s, duration {Options.Duration.TotalSeconds:0.#} s, ")
        + (Options.Capacity
            ? string.Create(CultureInfo.InvariantCulture, $"capacity search from {Options.RateStart:0.#}/s, x{Options.RateFactor:0.##} a step, up to {Options.RateMax:0.#}/s, a rate passes in one of {Options.StepAttempts} runs, p99 bound {Options.P99Bound.TotalMilliseconds:0} ms, ")
            : Options.Rates.Count > 0 ? $"open model at {string.Join(',', Options.Rates.Select(rate => rate.ToString("0.#", CultureInfo.InvariantCulture)))} requests/s, "
            : $"copies {string.Join(',', Options.Copies)}, ")
        + $"members {string.Join(',', Options.MemberCounts)}, "
        + string.Create(CultureInfo.InvariantCulture, $"request timeout {Options.RequestTimeout.TotalSeconds:0} s, at most {Options.MaxRequestsPerPhase} requests per phase")
        + (Options.Repetitions > 1
            ? string.Create(CultureInfo.InvariantCulture, $"; {Options.Repetitions} runs of every scenario and copies, interleaved (all scenarios once, then again), {RepetitionServer}")
            : string.Empty)
        + (Options.ThroughHAProxy ? "; every scenario and load straight from replica 1 and through HAProxy, one right after the other" : string.Empty);

    /// <summary>Which server process the runs of one scenario and copies get.</summary>
    public string RepetitionServer => Options.ThroughHAProxy ? "all on the same replicas and HAProxy (--through-haproxy), so they share the replicas' JIT-compiled code"
        : Options.Url is not null || Options.SharedServer ? "all on the same server process (--url or --shared-server), so they share its JIT-compiled code"
        : "each on a fresh server process";

    // How busy the machine was when the run started: figures from a loaded machine say so.
    private static string LoadAverage()
    {
        try
        {
            var fields = File.Exists("/proc/loadavg") ? File.ReadAllText("/proc/loadavg").Split(' ') : [];
            return fields.Length > 0 ? $", load average {fields[0]} at the start (1 minute)" : string.Empty;
        }
        catch (IOException)
        {
            return string.Empty;
        }
    }

    private static string CpuModel()
    {
        try
        {
            var model = File.ReadLines("/proc/cpuinfo").FirstOrDefault(line => line.StartsWith("model name", StringComparison.Ordinal));
            return model is null ? RuntimeInformation.ProcessArchitecture.ToString() : model[(model.IndexOf(':', StringComparison.Ordinal) + 1)..].Trim();
        }
        catch (IOException)
        {
            return RuntimeInformation.ProcessArchitecture.ToString();
        }
    }
}
