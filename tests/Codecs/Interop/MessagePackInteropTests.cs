using WebSerialization.Codecs.Tests.Support;
using WebSerialization.Models;
using WebSerialization.Models.MessagePack;
using WebSerialization.Tests.Support;

namespace WebSerialization.Codecs.Tests.Interop;

/// <summary>
/// Our MessagePack codec against @msgpack/msgpack. MessagePack tells null from empty, so every value must survive
/// exactly. The JavaScript side writes every integer in the int64/uint64 formats, which our decoder must accept.
/// </summary>
public class MessagePackInteropTests
{
    private static readonly MessagePackCodec Codec = MessagePackCodec.Instance;

    [Theory]
    [MemberData(nameof(InteropOrganizations.Names), MemberType = typeof(InteropOrganizations))]
    public void MsgpackJsReadsWhatWeWrite(string name)
    {
        var organization = InteropOrganizations.Get(name);

        var decoded = InteropScripts.Decode("msgpack", CodecHarness.Encode(Codec, organization));

        OrganizationAssert.Equal(organization, decoded);
    }

    [Theory]
    [MemberData(nameof(InteropOrganizations.Names), MemberType = typeof(InteropOrganizations))]
    public void WeReadWhatMsgpackJsWrites(string name)
    {
        var organization = InteropOrganizations.Get(name);

        var decoded = CodecHarness.Decode(Codec, InteropScripts.Encode("msgpack", organization), chunkSize: 7);

        OrganizationAssert.Equal(organization, decoded);
        Assert.Equal(OrganizationChecksum.Compute(organization), OrganizationChecksum.Compute(decoded));
    }
}
