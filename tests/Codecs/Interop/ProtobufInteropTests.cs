using WebSerialization.Codecs.Tests.Support;
using WebSerialization.Models;
using WebSerialization.Models.Protobuf;
using WebSerialization.Tests.Support;

namespace WebSerialization.Codecs.Tests.Interop;

/// <summary>Our protobuf codec against protobufjs, reading the schema in tests/Interop/organization.proto.</summary>
public class ProtobufInteropTests
{
    private static readonly ProtobufCodec Codec = ProtobufCodec.Instance;

    [Theory]
    [MemberData(nameof(InteropOrganizations.Names), MemberType = typeof(InteropOrganizations))]
    public void ProtobufjsReadsWhatWeWrite(string name)
    {
        var organization = InteropOrganizations.Get(name);

        var decoded = InteropScripts.Decode("protobuf", CodecHarness.Encode(Codec, organization));

        // Our encoder writes empty strings, but protobufjs, as proto3's implicit presence has it, reads a field holding
        // its default value as absent: so an empty string, like an empty list, comes back null.
        OrganizationAssert.Equal(OrganizationAssert.Proto3View(organization), decoded);
    }

    [Theory]
    [MemberData(nameof(InteropOrganizations.Names), MemberType = typeof(InteropOrganizations))]
    public void WeReadWhatProtobufjsWrites(string name)
    {
        var organization = InteropOrganizations.Get(name);

        var decoded = CodecHarness.Decode(Codec, InteropScripts.Encode("protobuf", organization), chunkSize: 7);

        // protobufjs, as proto3 allows, leaves out empty strings as well as empty lists.
        var expected = OrganizationAssert.Proto3View(organization);
        OrganizationAssert.Equal(expected, decoded);
        Assert.Equal(OrganizationChecksum.Compute(expected), OrganizationChecksum.Compute(decoded));
    }

    [Fact]
    public void WritesTheSameBytesAsProtobufjsWhenNoStringIsEmpty()
    {
        // Both write fields in number order, and int32 -1 as a 10-byte varint, so with nothing left out the bytes agree.
        var organization = TestOrganizations.Random(12, 100);
        foreach (var member in organization.Members!)
        {
            member.Name = string.IsNullOrEmpty(member.Name) ? null : member.Name;
            member.Description = string.IsNullOrEmpty(member.Description) ? null : member.Description;
            member.Address = string.IsNullOrEmpty(member.Address) ? null : member.Address;
        }

        organization.Tags = [.. organization.Tags!.Where(tag => tag.Length > 0).DefaultIfEmpty("t")];

        Assert.Equal(InteropScripts.Encode("protobuf", organization), CodecHarness.Encode(Codec, organization));
    }

    [Fact]
    public void DecodesWithTheSchemaFileGiven()
    {
        var organization = OrganizationGenerator.Create(3);

        var decoded = InteropScripts.Decode("protobuf", CodecHarness.Encode(Codec, organization), InteropScripts.SchemaPath);

        OrganizationAssert.Equal(organization, decoded);
    }
}
