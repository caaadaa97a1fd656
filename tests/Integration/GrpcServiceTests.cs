using Grpc.Core;
using WebSerialization.Models.GrpcContract;

namespace WebSerialization.IntegrationTests;

// The code-first gRPC service over real h2c against the real app (1,000,000 members), called by Grpc.Net.Client
// with protobuf-net.Grpc's client and by Node's @grpc/grpc-js with stubs built from the served .proto; every answer
// is checked against what the HTTP endpoints answer for the same members.
[Collection(ApiCollection.Name)]
public sealed class GrpcServiceTests(ApiServer server)
{
    private const int DefaultBatchSize = 4000;

    [Theory]
    [InlineData(1)]
    [InlineData(10_000)]
    public async Task UnaryCallAnswersTheMembersAndChecksumOfTheHttpEndpoint(int count)
    {
        using var channel = GrpcClients.Channel(server);

        var organization = await GrpcClients.Organization(channel).GetOrganizationAsync(new OrganizationRequest { Count = count });

        OrganizationAssert.Equal(server.Expected, count, organization);
        Assert.Equal(await HttpChecksumAsync(count), OrganizationChecksum.Compute(organization));
    }

    [Fact]
    public async Task StreamSendsTheIdAndTagsFirstThenEveryMemberInBatches()
    {
        using var channel = GrpcClients.Channel(server);
        var parts = 0;
        var organization = new Organization { Members = [] };

        await foreach (var part in GrpcClients.Organization(channel).StreamOrganizationAsync(new OrganizationRequest()))
        {
            if (parts++ == 0)
            {
                Assert.Null(part.Members);
                organization.Id = part.Id;
                organization.Tags = part.Tags;
                continue;
            }

            Assert.Equal(0, part.Id);
            Assert.Null(part.Tags);
            Assert.InRange(part.Members!.Count, 1, DefaultBatchSize);
            organization.Members.AddRange(part.Members);
        }

        var memberCount = server.Expected.Members!.Count;
        Assert.Equal(1 + ((memberCount + DefaultBatchSize - 1) / DefaultBatchSize), parts);
        Assert.Equal(OrganizationChecksum.Compute(server.Expected), OrganizationChecksum.Compute(organization));
        server.AssertNoErrorsLogged();
    }

    [Theory]
    [InlineData(10_000)]
    [InlineData(0)]
    public async Task StreamedUploadAnswersTheChecksumThatPostAnswers(int count)
    {
        using var channel = GrpcClients.Channel(server);
        var service = GrpcClients.Organization(channel);

        // The server's own stream, piped straight back: one batch in memory at a time on either side.
        var summary = await service.UploadOrganizationAsync(service.StreamOrganizationAsync(new OrganizationRequest { Count = count }));

        var members = count == 0 ? server.Expected.Members!.Count : count;
        Assert.Equal("protobuf", summary.Format);
        Assert.Equal(members, summary.MemberCount);
        Assert.Equal(server.Expected.Tags!.Length, summary.TagCount);
        Assert.InRange(summary.BytesRead, members * 40L, members * 200L);
        Assert.Equal(await HttpChecksumAsync(members), summary.Checksum);
    }

    [Fact]
    public async Task UploadKeepsNegativeZeroEmptyStringsAndExtremeValues()
    {
        using var channel = GrpcClients.Channel(server);
        Member[] members =
        [
            new() { Id = int.MinValue, Name = string.Empty, Description = null, Address = "\u00e9\ud83d\ude00", Value = -0.0, UpdateTime = long.MinValue },
            new() { Id = int.MaxValue, Name = "x", Value = double.NaN, UpdateTime = long.MaxValue },
            new() { Value = double.NegativeInfinity },
        ];
        var organization = new Organization { Id = -7, Tags = ["a", string.Empty], Members = [.. members] };

        var summary = await GrpcClients.Organization(channel).UploadOrganizationAsync(GrpcClients.Parts(organization, batch: 1));

        Assert.Equal(OrganizationChecksum.Compute(organization), summary.Checksum);
    }

    [Theory]
    [InlineData(-1)]
    [InlineData(1_000_001)]
    public async Task CountOutOfRangeIsInvalidArgumentForEveryMethod(int count)
    {
        using var channel = GrpcClients.Channel(server);
        var service = GrpcClients.Organization(channel);
        var request = new OrganizationRequest { Count = count };

        const string Detail = "count must be from 1 to 1000000";
        await GrpcClients.AssertRefusedAsync(async () => await service.GetOrganizationAsync(request), StatusCode.InvalidArgument, Detail);
        await GrpcClients.AssertRefusedAsync(async () => await service.StreamOrganizationAsync(request).ToListAsync(), StatusCode.InvalidArgument, Detail);
    }

    [Theory]
    [InlineData("unary")]
    [InlineData("stream")]
    public async Task NodeClientBuiltFromTheServedProtoReadsTheOrganization(string method)
    {
        const int Count = 2500;
        var organization = await HttpPayloads.WithServedSchemaAsync(server.Client, schema => InteropScripts.CallGrpc(schema, $"127.0.0.1:{server.GrpcPort}", method, Count));

        OrganizationAssert.Equal(server.Expected, Count, organization);
    }

    private async Task<string> HttpChecksumAsync(int count)
    {
        var payload = await HttpPayloads.DownloadAsync(server.Client, WireFormat.Protobuf, count);
        using var response = await HttpPayloads.UploadAsync(server.Client, WireFormat.Protobuf, payload);
        return (await HttpPayloads.AssertSummaryAsync(response)).Checksum;
    }
}
