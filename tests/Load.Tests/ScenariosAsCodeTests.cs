namespace WebSerialization.Load.Tests;

/// <summary>A scenario written by its user, run through the engine as the runner runs the built-in ones.</summary>
public sealed class ScenariosAsCodeTests : IDisposable
{
    private readonly HttpClient _unused = new();

    private ScenarioClients Clients => new(_unused, null);

    [Fact]
    public async Task GivesEachStepItsOwnLatencyBesideTheInvocations()
    {
        var scenario = Scenario.Create("two-steps", async context =>
        {
            await Step.Run("short", context, async () =>
            {
                await Task.Delay(5, context.CancellationToken);
                return Response.Ok(sizeBytes: 10);
            });
            var slow = await Step.Run("long", context, async () =>
            {
                await Task.Delay(40, context.CancellationToken);
                return Response.Ok(sizeBytes: 1_000, bytesSent: 7);
            });
            return Response.Ok(sizeBytes: 10 + slow.SizeBytes, bytesSent: slow.BytesSent);
        });

        // The phase ends after its 10 requests, however late a busy machine starts its copies.
        var phase = await ScenarioPhase.RunAsync(scenario, Clients, Simulation.KeepConstant(2, TimeSpan.FromMinutes(10)), 0, "two-steps x2 measured", 10, TimeSpan.FromSeconds(5), CancellationToken.None);
        var result = new ScenarioResult(scenario, 2, ScenarioOutcome.Ran, null) { Samples = phase.Samples, Elapsed = phase.Elapsed };

        Assert.Equal(10, phase.Samples.Count);
        Assert.All(phase.Samples, sample => Assert.True(sample.Succeeded));
        Assert.Equal(["short", "long"], result.Steps.Select(step => step.Name));
        var (shortStep, longStep) = (result.Steps[0], result.Steps[1]);
        Assert.Equal(phase.Samples.Count, shortStep.Succeeded);
        Assert.Equal(phase.Samples.Count, longStep.Succeeded);
        // A delay may run late (a busy machine) but never early, so only lower bounds are timing-proof; which step got which
        // samples shows in their sizes.
        Assert.InRange(longStep.Latency!.P50, 35, 5_000);
        Assert.InRange(shortStep.Latency!.P50, 4, 5_000);

        // Every invocation waits for both its steps, so their median cannot be below either step's.
        Assert.True(result.Latency!.P50 >= Math.Max(shortStep.Latency.P50, longStep.Latency.P50), "the invocation takes its steps' time");
        Assert.Equal(10, shortStep.ResponseBytes);
        Assert.Equal(1_000, longStep.ResponseBytes);
        Assert.Equal(1_010, result.ResponseBytes);
        Assert.Equal(7, result.RequestBytes);
        Assert.Contains("| long | " + phase.Samples.Count, MarkdownReport.Scenario(new RepeatedScenario(scenario, 2, [result]), SampleRun.Description), StringComparison.Ordinal);
    }

    [Fact]
    public async Task EndsTheInvocationAtAFailedStepAndCountsItUnderTheStepsName()
    {
        var reachedSecond = 0;
        var scenario = Scenario.Create("fails-first", async context =>
        {
            await Step.Run("login", context, () => Task.FromResult(Response.Fail("HTTP 401 Unauthorized", 401)));
            Interlocked.Increment(ref reachedSecond);
            return Response.Ok();
        });

        var phase = await ScenarioPhase.RunAsync(scenario, Clients, Simulation.Inject(50, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(0.2)), 0, "fails-first r50 measured", 1_000, TimeSpan.FromSeconds(5), CancellationToken.None);
        var result = new ScenarioResult(scenario, 1, ScenarioOutcome.Ran, null) { Samples = phase.Samples, Elapsed = phase.Elapsed, Rate = 50 };

        Assert.Equal(10, phase.Samples.Count);
        Assert.Equal(0, reachedSecond);
        Assert.Equal(("step login: HTTP 401 Unauthorized", 10), result.FailureReasons.Single());
        Assert.All(phase.Samples, sample => Assert.Equal(401, sample.StatusCode));
        Assert.Equal(10, Assert.Single(result.Steps).Failed);
    }

    [Fact]
    public async Task RecordsAnExceptionAsAFailedInvocationAndATimeoutAsOne()
    {
        var scenario = Scenario.Create("throws", async context =>
        {
            if (context.Copy == 0)
            {
                throw new InvalidOperationException("no token");
            }

            await Task.Delay(TimeSpan.FromSeconds(10), context.CancellationToken);
            return Response.Ok();
        });

        var phase = await ScenarioPhase.RunAsync(scenario, Clients, Simulation.Inject(20, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(0.1)), 0, "throws r20", 1_000, TimeSpan.FromSeconds(0.2), CancellationToken.None);

        Assert.Equal(["InvalidOperationException: no token", "timed out after 0.2 s"], phase.Samples.Select(sample => sample.Error).Order());
    }

    [Fact]
    public async Task KeepsTheFirstLogLinesOfAPhase()
    {
        var scenario = Scenario.Create("logs", context =>
        {
            context.Log("hello");
            return Task.FromResult(Response.Ok(sizeBytes: 1));
        });

        // The phase ends after its 12 requests; its 10 minutes only keep a busy machine from ending it first.
        var phase = await ScenarioPhase.RunAsync(scenario, Clients, Simulation.KeepConstant(1, TimeSpan.FromMinutes(10)), 0, "logs", 12, TimeSpan.FromSeconds(1), CancellationToken.None);

        Assert.Equal(ScenarioPhase.KeptLogLines + 1, phase.Log.Count);
        Assert.StartsWith("copy 0, invocation 1: hello", phase.Log[0], StringComparison.Ordinal);
        Assert.Equal("... and 2 more lines", phase.Log[^1]);
    }

    [Theory]
    [InlineData(0, 100, 50)]
    [InlineData(100, 100, 100)]
    [InlineData(100, 0, 50)]
    public void RampsTheArrivalsAlongTheRatesStraightLine(double from, double to, int expected)
    {
        var schedule = ArrivalSchedule.Ramp(from, to, TimeSpan.FromSeconds(1), 10_000);

        Assert.Equal(expected, schedule.Count);
        var due = Enumerable.Range(0, schedule.Count).Select(schedule.DueAt).ToArray();
        Assert.Equal(due.Order(), due);
        Assert.All(due, time => Assert.InRange(time.TotalSeconds, 0, 1));

        // Half the time in, the arrivals due are the area under the line so far.
        var halfway = due.Count(time => time.TotalSeconds < 0.5);
        Assert.InRange(halfway, Math.Floor(((from + ((from + to) / 2)) / 2 * 0.5) - 1), Math.Ceiling(((from + ((from + to) / 2)) / 2 * 0.5) + 1));
    }

    public void Dispose() => _unused.Dispose();
}
