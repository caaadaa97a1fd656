using System.IO.Pipelines;
using WebSerialization.Models.Codecs;
using WebSerialization.Models.Streaming;

namespace WebSerialization.IntegrationTests;

// Uploads and conversions take the memory of a member, not of the organization: a server whose GC heap is smaller than
// a million-member organization (HeapLimitedApiProcess) summarizes and converts one in every format. Neither side of
// the test holds a payload: the body is encoded as it is sent, and the converted answer is checked as it is read.
public sealed class ConstantMemoryUploadTests(HeapLimitedApiProcess server) : IClassFixture<HeapLimitedApiProcess>
{
    private static readonly Lazy<(Organization Organization, string Checksum)> Million = new(() =>
    {
        var organization = OrganizationGenerator.Create();
        return (organization, OrganizationChecksum.Compute(organization));
    });

    [Theory]
    [MemberData(nameof(TheoryRows.Formats), MemberType = typeof(TheoryRows))]
    public async Task SummarizesAMillionMemberUploadInAHeapSmallerThanTheOrganization(WireFormat format)
    {
        var (organization, checksum) = Million.Value;
        using var request = Post("/api/organization", format, organization);
        request.Headers.Accept.ParseAdd(WireMediaTypes.Json);

        using var response = await server.Client.SendAsync(request);

        var text = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, $"{(int)response.StatusCode}: {text}\n{string.Join('\n', server.Output.TakeLast(20))}");
        var summary = JsonSerializer.Deserialize<UploadSummary>(text, new JsonSerializerOptions(JsonSerializerDefaults.Web))!;
        Assert.Equal(organization.Members!.Count, summary.MemberCount);
        Assert.Equal(checksum, summary.Checksum);
        Assert.True(server.IsRunning);
    }

    [Theory]
    [MemberData(nameof(TheoryRows.Formats), MemberType = typeof(TheoryRows))]
    public async Task ConvertsAMillionMemberUploadInAHeapSmallerThanTheOrganization(WireFormat from)
    {
        // Each source into the next format: every format is read and written once, JSON to MessagePack and protobuf to
        // binary (a target that states the member count first, from a source that does not) among them.
        var to = WireFormat.All[(WireFormat.All.ToList().IndexOf(from) + 1) % WireFormat.All.Count];
        var (organization, checksum) = Million.Value;
        using var request = Post($"/api/organization/convert?format={to.Key}", from, organization);

        using var response = await server.Client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead);

        Assert.True(response.StatusCode == HttpStatusCode.OK, $"{(int)response.StatusCode}: {await response.Content.ReadAsStringAsync()}\n{string.Join('\n', server.Output.TakeLast(20))}");
        var summarizer = new OrganizationSummarizer();
        var body = PipeReader.Create(await response.Content.ReadAsStreamAsync());
        await OrganizationStreamReader.ReadToEndAsync(body, to.Codec.CreateDecoder(DecodeLimits.Default, summarizer), CancellationToken.None);
        Assert.Equal(organization.Members!.Count, summarizer.Header.MemberCount);
        Assert.Equal(checksum, summarizer.Checksum);
        Assert.True(server.IsRunning);
    }

    [Fact]
    public async Task TheSameHeapCannotHoldTheOrganizationItself()
    {
        // The control: the heap these tests run in is too small for the graph that an upload must not build.
        var exit = await HeapLimitedApiProcess.RunUntilExitAsync(memberCount: 1_000_000, TimeSpan.FromMinutes(1));

        Assert.True(exit is not null, "A server that builds a million-member organization at start ran on in the limited heap.");
        Assert.NotEqual(0, exit.Value.ExitCode);
        Assert.Contains(nameof(OutOfMemoryException), exit.Value.Output, StringComparison.Ordinal);
    }

    private static HttpRequestMessage Post(string path, WireFormat format, Organization organization) =>
        new(HttpMethod.Post, path) { Content = new StreamedOrganizationContent(format, organization) { Headers = { ContentType = new(format.MediaType) } } };

    /// <summary>A request body encoded from the organization as it is sent, in chunks, as a download is.</summary>
    private sealed class StreamedOrganizationContent(WireFormat format, Organization organization) : HttpContent
    {
        protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context)
        {
            var writer = PipeWriter.Create(stream, new StreamPipeWriterOptions(leaveOpen: true));
            await OrganizationStreamWriter.WriteAsync(writer, format.Codec.CreateEncoder(), organization, organization.Members?.Count ?? 0, CancellationToken.None);
            await writer.CompleteAsync();
        }

        protected override bool TryComputeLength(out long length)
        {
            length = 0;
            return false;
        }
    }
}
