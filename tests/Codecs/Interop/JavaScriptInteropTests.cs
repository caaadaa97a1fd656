namespace WebSerialization.Codecs.Tests.Interop;

/// <summary>
/// Our codecs against JavaScript libraries that share no code with ours, both ways, on each of
/// <see cref="BinaryInteropTests.Organizations"/>:
/// <list type="bullet">
/// <item>JSON against JavaScript's own <c>JSON.parse</c> (with source text access, so int64 keeps every digit).</item>
/// <item>MessagePack against @msgpack/msgpack. MessagePack tells null from empty, so every value must survive exactly.
/// The JavaScript side writes every integer in the int64/uint64 formats, which our decoder must accept.</item>
/// <item>Protobuf against protobufjs, reading the schema in tests/Interop/organization.proto (more in
/// <see cref="ProtobufInteropTests"/>).</item>
/// </list>
/// The binary format is checked against webserialization-binary.mjs by <see cref="BinaryInteropTests"/>, which holds it to more: values
/// to the bit, the same bytes as ours, the spec's test vectors.
/// </summary>
public class JavaScriptInteropTests
{
    /// <summary>Every format but binary, with every organization.</summary>
    public static TheoryData<WireFormat, string> Cases => Cross(WireFormat.All.Where(format => format != WireFormat.Binary), BinaryInteropTests.Organizations);

    [Theory]
    [MemberData(nameof(Cases))]
    public void JavaScriptReadsWhatWeWrite(WireFormat format, string name)
    {
        var organization = OrganizationGen.Named(name);

        var decoded = InteropScripts.Decode(format.Key, Encode(format.Codec, organization));

        OrganizationAssert.Equal(AsJavaScriptHasIt(format, organization), decoded);
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public void WeReadWhatJavaScriptWrites(WireFormat format, string name)
    {
        var organization = OrganizationGen.Named(name);

        var decoded = Decode(format.Codec, InteropScripts.Encode(format.Key, organization), chunkSize: 7);

        var expected = AsJavaScriptHasIt(format, organization);
        OrganizationAssert.Equal(expected, decoded);
        Assert.Equal(OrganizationChecksum.Compute(expected), OrganizationChecksum.Compute(decoded));
    }

    // Our protobuf encoder writes empty strings, but protobufjs, as proto3's implicit presence has it, reads a field
    // holding its default value as absent, and leaves one out when it writes: so an empty string, like an empty list,
    // comes back null. The other libraries keep every value.
    private static Organization AsJavaScriptHasIt(WireFormat format, Organization organization) =>
        format == WireFormat.Protobuf ? OrganizationAssert.Proto3View(organization) : organization;
}
