namespace WebSerialization.Codecs.Tests.Interop;

/// <summary>
/// Our protobuf codec against protobufjs, reading the schema in tests/Interop/organization.proto, where protobuf has
/// more to check than <see cref="JavaScriptInteropTests"/>' round trips: the same bytes, and a schema file given.
/// </summary>
public class ProtobufInteropTests
{
    private static readonly ProtobufCodec Codec = ProtobufCodec.Instance;

    [Fact]
    public void WritesTheSameBytesAsProtobufjsWhenNoStringIsEmpty()
    {
        // Both write fields in number order, and int32 -1 as a 10-byte varint, so with nothing left out the bytes agree.
        var organization = OrganizationGen.Random(12, 100);
        foreach (var member in organization.Members!)
        {
            member.Name = string.IsNullOrEmpty(member.Name) ? null : member.Name;
            member.Description = string.IsNullOrEmpty(member.Description) ? null : member.Description;
            member.Address = string.IsNullOrEmpty(member.Address) ? null : member.Address;
        }

        organization.Tags = [.. organization.Tags!.Where(tag => tag.Length > 0).DefaultIfEmpty("t")];

        Assert.Equal(InteropScripts.Encode("protobuf", organization), Encode(Codec, organization));
    }

    [Fact]
    public void DecodesWithTheSchemaFileGiven()
    {
        var organization = OrganizationGenerator.Create(3);

        var decoded = InteropScripts.Decode("protobuf", Encode(Codec, organization), InteropScripts.SchemaPath);

        OrganizationAssert.Equal(organization, decoded);
    }
}
