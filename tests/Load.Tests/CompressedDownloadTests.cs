using System.Net;

namespace WebSerialization.Load.Tests;

/// <summary>The downloads with <c>Accept-Encoding</c>: which runs select them, what they send, and what counts as a compressed answer.</summary>
public class CompressedDownloadTests
{
    [Theory]
    [InlineFormatData("msgpack", "br")]
    [InlineFormatData("binary", "gzip")]
    public void AsksTheStreamedRouteForItsEncodingOnly(WireFormat format, string encoding)
    {
        var scenario = HttpScenarios.CompressedDownload(format, encoding, 10_000);

        using var request = HttpScenarios.CreateRequest(scenario.Subject!, default);

        Assert.Equal(HttpMethod.Get, request.Method);
        Assert.Equal($"/api/organization?format={format.Key}&count=10000", request.RequestUri!.OriginalString);
        Assert.Equal(encoding, Assert.Single(request.Headers.AcceptEncoding).Value);
        Assert.Equal($"compressed-download-{format.Key}-{encoding}-10000", scenario.Name);
        Assert.Equal($"{format.Key} {encoding}", scenario.Label);
    }

    [Theory]
    [InlineData("br", "br", null)]
    [InlineData("gzip", "GZIP", null)]
    [InlineData("br", null, "asked for Content-Encoding br, got none (identity)")]
    [InlineData("br", "gzip", "asked for Content-Encoding br, got gzip")]
    public async Task FailsAnAnswerThatIsNotInTheEncodingAskedFor(string asked, string? answered, string? failure)
    {
        var handler = new AnsweringHandler(answered, bodyBytes: 3_000);
        using var client = new HttpClient(handler) { BaseAddress = new Uri("http://127.0.0.1:1/") };
        var scenario = HttpScenarios.CompressedDownload(WireFormat.Json, asked, 10_000);

        var phase = await ScenarioPhase.RunAsync(scenario, new ScenarioClients(client, null), Simulation.KeepConstant(1, TimeSpan.FromMinutes(10)), 0, "compressed x1 measured", 2, TimeSpan.FromSeconds(5), CancellationToken.None);

        Assert.Equal(2, phase.Samples.Count);
        Assert.All(phase.Samples, sample =>
        {
            Assert.Equal(failure, sample.Error);
            Assert.Equal(3_000, sample.BytesReceived);
        });
        Assert.All(handler.AcceptEncodings, header => Assert.Equal(asked, header));
    }

    [Fact]
    public void KeepsCompressedDownloadsOutOfTheDownloadTargetsAndChartsThemByEncoding()
    {
        IReadOnlyList<ScenarioResult> plain = [.. WireFormat.All.Select(format => SampleRun.Ran(HttpScenarios.Download(format, 1_000_000), 1, 80, 100))];
        IReadOnlyList<ScenarioResult> compressed = [.. CompressedDownloads.For([1_000_000]).Select(scenario => SampleRun.Ran(scenario, 1, 20, 400))];

        Assert.Equal(DownloadTargets.Evaluate(plain), DownloadTargets.Evaluate([.. plain, .. compressed]));
        var panel = Assert.Single(FormatCharts.Latency(compressed)!.Panels);
        Assert.StartsWith(ScenarioOperation.CompressedDownload.Title, panel.Title, StringComparison.Ordinal);
        Assert.Equal(["json gzip", "json br", "msgpack gzip", "msgpack br", "protobuf gzip", "protobuf br", "binary gzip", "binary br"], panel.Bars.Select(bar => bar.Label));
    }

    // Answers every request with a body of bodyBytes in the given Content-Encoding (none when null), and records the Accept-Encoding asked for.
    private sealed class AnsweringHandler(string? contentEncoding, int bodyBytes) : HttpMessageHandler
    {
        public List<string> AcceptEncodings { get; } = [];

        protected override Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
        {
            lock (AcceptEncodings)
            {
                AcceptEncodings.Add(request.Headers.AcceptEncoding.ToString());
            }

            var response = new HttpResponseMessage(HttpStatusCode.OK) { Content = new ByteArrayContent(new byte[bodyBytes]) };
            if (contentEncoding is not null)
            {
                response.Content.Headers.ContentEncoding.Add(contentEncoding);
            }

            return Task.FromResult(response);
        }
    }
}
