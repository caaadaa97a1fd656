using ProtoBuf;
using WebSerialization.Models.GrpcContract;

namespace WebSerialization.Codecs.Tests.GrpcContract;

/// <summary>
/// The schema protobuf-net generates from the attributed types is the one the HTTP protobuf encoder writes.
/// </summary>
public sealed class ProtobufSchemaTests
{
    // protobufjs reads tests/Interop/organization.proto in the codec tests; the server serves the generated text.
    [Fact]
    public void InteropCopyOfTheSchemaIsTheGeneratedOne() =>
        Assert.Equal(ProtobufSchema.Text, File.ReadAllText(InteropScripts.SchemaPath));

    [Fact]
    public void ProtobufNetReadsTheHttpEncodersBytesAsTheSchemasOrganization()
    {
        var organization = OrganizationGen.Random(7, 300);

        var decoded = Serializer.Deserialize<Organization>(Encode(ProtobufCodec.Instance, organization).AsSpan());

        // The checksum hashes strings as they are sent (unpaired surrogates as U+FFFD) and tells null from empty.
        Assert.Equal(OrganizationChecksum.Compute(organization), OrganizationChecksum.Compute(decoded));
    }
}
