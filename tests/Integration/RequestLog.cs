using System.Diagnostics;

namespace WebSerialization.IntegrationTests;

/// <summary>Finds the request log's line for one request, which is written just after its response has been sent.</summary>
public static class RequestLog
{
    public const string Category = "WebSerialization.Api.Diagnostics.RequestLogMiddleware";

    /// <summary>Waits up to 30 s for the request log line that contains <paramref name="marker"/> (a unique query value).</summary>
    public static async Task<string> WaitForLineAsync(ApiServer server, string marker)
    {
        var stopwatch = Stopwatch.StartNew();
        while (true)
        {
            var lines = server.AppEvents.Where(e => e.Category == Category && e.Message.Contains(marker, StringComparison.Ordinal)).ToArray();
            if (lines.Length > 0)
            {
                Assert.Single(lines);
                return lines[0].Message;
            }

            Assert.True(stopwatch.Elapsed < TimeSpan.FromSeconds(30), $"No request log line mentions '{marker}' after 30 s.");
            await Task.Delay(20);
        }
    }
}
