using WebSerialization.Codecs.Tests.Support;
using WebSerialization.Models;
using WebSerialization.Models.Json;
using WebSerialization.Tests.Support;

namespace WebSerialization.Codecs.Tests.Interop;

/// <summary>Our JSON codec against JavaScript's own JSON.parse (with source text access, so int64 keeps every digit).</summary>
public class JsonInteropTests
{
    private static readonly JsonCodec Codec = JsonCodec.Instance;

    [Theory]
    [MemberData(nameof(InteropOrganizations.Names), MemberType = typeof(InteropOrganizations))]
    public void JavaScriptReadsWhatWeWrite(string name)
    {
        var organization = InteropOrganizations.Get(name);

        var decoded = InteropScripts.Decode("json", CodecHarness.Encode(Codec, organization));

        OrganizationAssert.Equal(organization, decoded);
    }

    [Theory]
    [MemberData(nameof(InteropOrganizations.Names), MemberType = typeof(InteropOrganizations))]
    public void WeReadWhatJavaScriptWrites(string name)
    {
        var organization = InteropOrganizations.Get(name);

        var decoded = CodecHarness.Decode(Codec, InteropScripts.Encode("json", organization), chunkSize: 7);

        OrganizationAssert.Equal(organization, decoded);
        Assert.Equal(OrganizationChecksum.Compute(organization), OrganizationChecksum.Compute(decoded));
    }
}
