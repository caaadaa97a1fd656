using MessagePack;
using WebSerialization.Codecs.Tests.Support;
using WebSerialization.Models;
using WebSerialization.Models.MessagePack;

namespace WebSerialization.Codecs.Tests.Libraries;

/// <summary>The attributes on the model are the seed's contract: the libraries write what our encoders write.</summary>
public sealed class LibraryContractTests
{
    public static TheoryData<int> Seeds => [1, 2, 3];

    [Theory]
    [MemberData(nameof(Seeds))]
    public void MessagePackCSharpWritesTheBytesOurEncoderWrites(int seed)
    {
        var organization = TestOrganizations.Random(seed, 200);

        var library = MessagePackSerializer.Serialize(organization, MessagePackSerializerOptions.Standard);

        Assert.Equal(library, CodecHarness.Encode(MessagePackCodec.Instance, organization));
    }
}
