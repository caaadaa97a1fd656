namespace WebSerialization.Load.Tests;

/// <summary>A small hand-made run: what the report writers get from a real one, with figures chosen to be found again.</summary>
public static class SampleRun
{
    public static readonly RunDescription Description = new(
        new DateTimeOffset(2026, 11, 21, 11, 57, 0, TimeSpan.Zero),
        "dotnet run -c Release --project tests/Load -- --smoke",
        "2 cores (Test CPU), Linux, .NET 10",
        "split: the server on CPU 0, the load client on CPU 1",
        "one process for the whole run",
        new LoadOptions { Smoke = true, Copies = [1], MemberCounts = [LoadOptions.SmokeMemberCount] });

    /// <summary>
    /// Downloads of every format at 10,000 members with 1 copy (response sizes 1, 0.5, 0.25 and 0.125 MB; p50 latency
    /// 40, 20, 10 and 5 ms) and at 1,000,000 members with 4 copies (100 times as large and slow), an upload with a failed
    /// request, a skipped convert and a convert that could not run.
    /// </summary>
    public static IReadOnlyList<ScenarioResult> Results(string formatKeyPrefix = "") =>
    [
        .. WireFormat.All
            .Select(format => formatKeyPrefix.Length == 0
                ? format
                : new WireFormat(
                    formatKeyPrefix + format.Key, format.Name, format.MediaType, format.Aliases, format.Codec))
            .SelectMany((format, index) => new[]
            {
                Ran(HttpScenarios.Download(format, 10_000), 1, 1.0 / (1 << index), 40.0 / (1 << index)),
                Ran(HttpScenarios.Download(format, 1_000_000), 4, 100.0 / (1 << index), 4000.0 / (1 << index)),
            }),
        Ran(HttpScenarios.Upload(WireFormat.Binary, 10_000), 1, 0.001, 7, failure: "500 Internal Server Error"),
        new(HttpScenarios.Convert(WireFormat.Protobuf, 10_000), 1, ScenarioOutcome.Skipped, "404 Not Found"),
        new(
            HttpScenarios.Convert(WireFormat.Binary, 10_000), 1, ScenarioOutcome.CouldNotRun, "the server exited with code 137"),
    ];

    /// <summary>The description of a run with three repetitions, each on a fresh server.</summary>
    public static readonly RunDescription RepeatedDescription = Description with
    {
        CommandLine = "dotnet run -c Release --project tests/Load -- --scenarios download-json-1000000,download-binary-1000000 --copies 1,4 --repeat 3",
        Options = new LoadOptions { Copies = [1, 4], MemberCounts = [1_000_000], Repetitions = 3 },
    };

    /// <summary>
    /// Three runs, interleaved as the runner does them, of the 1,000,000-member JSON download (p50 246, 253, 258 ms) and
    /// binary download (p50 61, 91, 67 ms) with 1 copy, and of the binary download with 4 copies. The binary download's
    /// server allocates 0.5, 1.5 and 0.8 MB per request in its three 1-copy runs; with 4 copies its runs raise the
    /// working set by 40, 70 and 50 MB.
    /// </summary>
    public static IReadOnlyList<ScenarioResult> Repeated()
    {
        var json = HttpScenarios.Download(WireFormat.Json, 1_000_000);
        var binary = HttpScenarios.Download(WireFormat.Binary, 1_000_000);
        double[] jsonP50 = [246, 253, 258];
        double[] binaryP50 = [61, 91, 67];
        double[] binaryAllocatedMegabytes = [0.5, 1.5, 0.8];
        long[] concurrentRaiseMegabytes = [40, 70, 50];
        var results = new List<ScenarioResult>();
        for (var run = 0; run < 3; run++)
        {
            results.Add(Ran(json, 1, 150, jsonP50[run]) with { Repetition = run + 1 });
            results.Add(Ran(binary, 1, 20, binaryP50[run]) with
            {
                Repetition = run + 1,
                ServerCost = new ServerCost(100, (long)(100 * binaryAllocatedMegabytes[run] * Units.BytesPerMegabyte), 8, 1_000, 12, 3, run, 4.5),
            });
            results.Add(Ran(binary, 4, 20, 4 * binaryP50[run]) with { Repetition = run + 1, PeakWorkingSet = (300 + concurrentRaiseMegabytes[run]) << 20 });
        }

        return results;
    }

    /// <summary>
    /// A scenario that ran 100 requests with latencies up to twice <paramref name="p50Milliseconds"/> (p95 = 1.9 x p50,
    /// p99 = 1.98 x p50), each body <paramref name="responseMegabytes"/>, and a failed request when <paramref name="failure"/> is given.
    /// </summary>
    public static ScenarioResult Ran(LoadScenario scenario, int copies, double responseMegabytes, double p50Milliseconds, string? failure = null)
    {
        var bytes = (long)(responseMegabytes * Units.BytesPerMegabyte);
        var samples = Enumerable.Range(1, 100)
            .Select(rank => new RequestSample(
                rank % copies,
                TimeSpan.FromMilliseconds(rank * 10),
                TimeSpan.FromMilliseconds(p50Milliseconds / 10),
                TimeSpan.FromMilliseconds(p50Milliseconds * rank / 50),
                scenario.Subject?.Operation == ScenarioOperation.Download ? 0 : bytes,
                scenario.Subject?.Operation == ScenarioOperation.Download ? bytes : 100,
                200,
                null))
            .Concat(failure is null ? [] : [new RequestSample(0, TimeSpan.FromSeconds(2), null, TimeSpan.FromSeconds(1), 0, 0, 500, failure)])
            .ToArray();
        return new ScenarioResult(scenario, copies, ScenarioOutcome.Ran, null)
        {
            Samples = samples,
            WarmUpRequests = 10,
            Elapsed = TimeSpan.FromSeconds(2),
            ServerCost = new ServerCost(100, 100 * 20_000, 8, 1_000, 12, 3, 1, 4.5),
            BaselineWorkingSet = 300L << 20,
            StartWorkingSet = 310L << 20,
            PeakWorkingSet = 340L << 20,
            PeakMethod = "VmHWM",
            Server = "pid 42",
        };
    }
}
