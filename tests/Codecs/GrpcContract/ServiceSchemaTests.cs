using ProtoBuf.Grpc;
using ProtoBuf.Grpc.Configuration;
using WebSerialization.Models.GrpcContract;

namespace WebSerialization.Codecs.Tests.GrpcContract;

/// <summary>The generator of a [Service] interface's protobuf <c>service</c>, which protobuf-net.Grpc.Reflection would be.</summary>
public sealed class ServiceSchemaTests
{
    [Service("test.Probe")]
    public interface IProbe
    {
        ValueTask<Member> UnaryAsync(OrganizationRequest request, CallContext context = default);

        Task<Member> WithTokenAsync(OrganizationRequest request, CancellationToken cancellation);

        IAsyncEnumerable<Member> ServerAsync(OrganizationRequest request);

        ValueTask<Member> ClientAsync(IAsyncEnumerable<OrganizationRequest> requests);

        [Operation("Both")]
        IAsyncEnumerable<Member> DuplexAsync(IAsyncEnumerable<OrganizationRequest> requests, CallContext context = default);
    }

    public interface INotAService
    {
        ValueTask<Member> UnaryAsync(OrganizationRequest request);
    }

    // protobuf-net.Grpc's analyzer refuses these two shapes at build time; the generator must refuse them at run time.
#pragma warning disable PBN2007, PBN2003
    [Service]
    public interface ITwoArguments
    {
        ValueTask<Member> AddAsync(OrganizationRequest left, OrganizationRequest right);
    }

    [Service]
    public interface IScalarAnswer
    {
        ValueTask<int> CountAsync(OrganizationRequest request);
    }
#pragma warning restore PBN2007, PBN2003

    [Fact]
    public void DescribesTheOrganizationServiceAsItsThreeMethods()
    {
        var (package, service) = ServiceSchema.Describe(typeof(IOrganizationService));

        Assert.Equal("webserialization", package);
        Assert.Equal("OrganizationService", service.Name);
        Assert.Equal(
            [
                ("GetOrganization", typeof(OrganizationRequest), typeof(Organization), false, false),
                ("StreamOrganization", typeof(OrganizationRequest), typeof(OrganizationPart), false, true),
                ("UploadOrganization", typeof(OrganizationPart), typeof(UploadSummary), true, false),
            ],
            service.Methods.Select(m => (m.Name, m.InputType, m.OutputType, m.ClientStreaming, m.ServerStreaming)));
    }

    [Fact]
    public void NamesAndStreamsEachShapeAsProtobufNetGrpcBindsIt()
    {
        var (package, service) = ServiceSchema.Describe(typeof(IProbe));

        Assert.Equal("test", package);
        Assert.Equal("Probe", service.Name);
        Assert.Equal(
            [
                ("Both", true, true),
                ("Client", true, false),
                ("Server", false, true),
                ("Unary", false, false),
                ("WithToken", false, false),
            ],
            service.Methods.Select(m => (m.Name, m.ClientStreaming, m.ServerStreaming)));
    }

    [Theory]
    [InlineData(typeof(INotAService), "is not a [Service] interface")]
    [InlineData(typeof(ITwoArguments), "must take exactly one message")]
    [InlineData(typeof(IScalarAnswer), "Int32 is not a message type")]
    public void RefusesWhatItCannotDescribe(Type contract, string reason)
    {
        var exception = Assert.Throws<ArgumentException>(() => ServiceSchema.Describe(contract));

        Assert.Contains(reason, exception.Message, StringComparison.Ordinal);
    }
}
