using System.Collections.Concurrent;
using WebSerialization.Api.Organizations;
using WebSerialization.Tests.Processes;

namespace WebSerialization.IntegrationTests;

// On one processor the API downloads from itself before /healthz turns 200 (HttpWarmUp), so that a container with a
// 1-CPU limit takes its first load with the request paths compiled.
public sealed class HttpWarmUpTests
{
    [Fact]
    public async Task AnswersHealthz503UntilItHasDownloadedFromItselfOnOneProcessor()
    {
        var output = new ConcurrentQueue<string>();
        var address = LoopbackPort.FreeAddress();
        var start = ApiProcessStart.Info(
            typeof(HttpWarmUp).Assembly.Location,
            address,
            LoopbackPort.Free(),
            memberCount: 20_000,
            new Dictionary<string, string> { ["Organization__HttpWarmUpRequests"] = "40" },
            CpuSet.Of([0]));
        await using var process = ApiProcess.Start(start, address, output.Enqueue);
        using var client = new HttpClient { BaseAddress = address, Timeout = TimeSpan.FromSeconds(10) };

        var answers = new List<HttpStatusCode>();
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(2));
        while (answers.LastOrDefault() != HttpStatusCode.OK)
        {
            Assert.False(process.HasExited, "The API exited:\n" + string.Join('\n', output));
            try
            {
                using var response = await client.GetAsync("/healthz", timeout.Token);
                answers.Add(response.StatusCode);
            }
            catch (HttpRequestException)
            {
                // Not listening yet.
            }

            await Task.Delay(20, timeout.Token);
        }

        Assert.Equal(HttpStatusCode.ServiceUnavailable, answers[0]);
        Assert.Contains(output, line => line.Contains("Warmed up through HTTP: 40 downloads of 20000 members", StringComparison.Ordinal));

        // Warming up is a planned state: every 503 above is a probe the health-check service logged, and none may be an error.
        var errors = ApiLogLines.Errors(output);
        Assert.True(errors.Count == 0, "The API logged errors while it warmed up:\n" + string.Join('\n', errors.Take(5)));
    }
}
