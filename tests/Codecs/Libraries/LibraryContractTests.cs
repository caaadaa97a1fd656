using MessagePack;
using ProtoBuf;

namespace WebSerialization.Codecs.Tests.Libraries;

/// <summary>The attributes on the model are the seed's contract: the libraries write what our encoders write.</summary>
public sealed class LibraryContractTests
{
    public static TheoryData<int> Seeds => [1, 2, 3];

    [Theory]
    [MemberData(nameof(Seeds))]
    public void MessagePackCSharpWritesTheBytesOurEncoderWrites(int seed)
    {
        var organization = OrganizationGen.Random(seed, 200);

        var library = MessagePackSerializer.Serialize(organization, MessagePackSerializerOptions.Standard);

        Assert.Equal(library, Encode(MessagePackCodec.Instance, organization));
    }

    [Fact]
    public void ProtobufNetWritesTheBytesOurEncoderWritesForTheSeedOrganization()
    {
        var organization = OrganizationGenerator.Create(1_000);
        using var library = new MemoryStream();

        Serializer.Serialize(library, organization);

        Assert.Equal(library.ToArray(), Encode(ProtobufCodec.Instance, organization));
    }

    [Fact]
    public void ProtobufNetLeavesOutANegativeZeroValueThatOurEncoderWrites()
    {
        // proto3 leaves a field out when it holds its default, and -0.0 is not the default (docs/libraries.md).
        var organization = new Organization { Members = [new Member { Id = 1, Value = -0.0 }] };
        using var library = new MemoryStream();

        Serializer.Serialize(library, organization);

        // Members element (field 3, 2 bytes): Id (field 1) = 1, and nothing for Value.
        Assert.Equal(Hex("1A 02 08 01"), library.ToArray());

        // Ours, 9 bytes more: Value (field 5, fixed64) with only the sign bit set.
        Assert.Equal(Hex("1A 0B 08 01 29 00 00 00 00 00 00 00 80"), Encode(ProtobufCodec.Instance, organization));
    }
}
