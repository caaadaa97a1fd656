namespace WebSerialization.Codecs.Tests.Interop;

/// <summary>
/// Our codecs against JavaScript that shares no code with ours, both ways: JSON against <c>JSON.parse</c> (with source
/// text access, so int64 keeps every digit); MessagePack against @msgpack/msgpack, which writes every integer in the
/// int64/uint64 formats; protobuf against protobufjs, reading tests/Interop/organization.proto; binary against
/// src/Api/wwwroot/js/webserialization-binary.mjs, to the bit (<see cref="BinaryInteropTests"/> holds it to more).
/// </summary>
public class JavaScriptInteropTests
{
    /// <summary>The organizations every format sends both ways, by <see cref="OrganizationGen.Named"/> name.</summary>
    internal static readonly string[] Organizations =
        ["seed 100", "random 11 of 200", "extremes", "empty lists", "nulls"];

    /// <summary>Seeded organizations with every edge of the binary format's texts, which binary sends too.</summary>
    internal static readonly string[] BinaryOnly = [.. Enumerable.Range(1, 9).Select(seed => $"random {seed}")];

    public static TheoryData<string, string> Cases()
    {
        var cases = Cross(FormatKeys, Organizations);
        foreach (var name in BinaryOnly)
        {
            cases.Add(WireFormat.Binary.Key, name);
        }

        return cases;
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public void JavaScriptReadsWhatWeWrite(string formatKey, string name)
    {
        var format = WireFormat.FromKey(formatKey)!;
        var organization = OrganizationGen.Named(name);

        var decoded = InteropScripts.Decode(format.Key, Encode(format.Codec, organization));

        AssertAsJavaScriptHasIt(format, organization, decoded);
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public void WeReadWhatJavaScriptWrites(string formatKey, string name)
    {
        var format = WireFormat.FromKey(formatKey)!;
        var organization = OrganizationGen.Named(name);

        var decoded = Decode(format.Codec, InteropScripts.Encode(format.Key, organization), chunkSize: 7);

        var expected = AssertAsJavaScriptHasIt(format, organization, decoded);
        Assert.Equal(OrganizationChecksum.Compute(expected), OrganizationChecksum.Compute(decoded));
    }

    // Our protobuf encoder writes empty strings, but protobufjs, as proto3's implicit presence has it, reads a field
    // holding its default value as absent, and leaves one out when it writes: so an empty string, like an empty list,
    // comes back null. The other libraries keep every value, and binary every double to the bit.
    private static Organization AssertAsJavaScriptHasIt(WireFormat format, Organization sent, Organization decoded)
    {
        var expected = format == WireFormat.Protobuf ? OrganizationAssert.Proto3View(sent) : sent;
        if (format == WireFormat.Binary)
        {
            BinaryInteropTests.AssertSameToTheBit(expected, decoded);
        }

        OrganizationAssert.Equal(expected, decoded);
        return expected;
    }
}
