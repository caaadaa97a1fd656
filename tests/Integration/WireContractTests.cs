using CodedInputStream = Google.Protobuf.CodedInputStream;
using ProtoWireFormat = Google.Protobuf.WireFormat;

namespace WebSerialization.IntegrationTests;

// What the server sends, read by implementations that share no code with its encoders: Google.Protobuf reading
// tags and fields generically, System.Text.Json's JsonDocument, and JavaScript libraries (protobufjs with the
// schema the server publishes, @msgpack/msgpack) run by Node.
[Collection(ApiCollection.Name)]
public sealed class WireContractTests(ApiServer server)
{
    private const int Count = 200;

    [Fact]
    public async Task ProtobufReadsFieldByFieldWithAGenericReader()
    {
        var payload = await HttpPayloads.DownloadAsync(server.Client, WireFormat.Protobuf, Count);

        var input = new CodedInputStream(payload);
        var organizationId = 0;
        var tags = new List<string>();
        var members = new List<Member>();
        for (uint tag; (tag = input.ReadTag()) != 0;)
        {
            switch (ProtoWireFormat.GetTagFieldNumber(tag), ProtoWireFormat.GetTagWireType(tag))
            {
                case (1, ProtoWireFormat.WireType.Varint):
                    organizationId = input.ReadInt32();
                    break;
                case (2, ProtoWireFormat.WireType.LengthDelimited):
                    tags.Add(input.ReadString());
                    break;
                case (3, ProtoWireFormat.WireType.LengthDelimited):
                    members.Add(ReadMember(new CodedInputStream(input.ReadBytes().ToByteArray())));
                    break;
                default:
                    Assert.Fail($"Unexpected field {ProtoWireFormat.GetTagFieldNumber(tag)} with wire type {ProtoWireFormat.GetTagWireType(tag)}.");
                    break;
            }
        }

        OrganizationAssert.Equal(server.Expected, Count, new Organization { Id = organizationId, Tags = [.. tags], Members = members });
    }

    [Fact]
    public async Task JsonUsesTheCamelCaseContract()
    {
        var payload = await HttpPayloads.DownloadAsync(server.Client, WireFormat.Json, Count);

        using var document = JsonDocument.Parse(payload);
        var root = document.RootElement;
        Assert.Equal(["id", "tags", "members"], root.EnumerateObject().Select(p => p.Name));
        Assert.Equal(1, root.GetProperty("id").GetInt32());
        Assert.Equal(server.Expected.Tags, root.GetProperty("tags").EnumerateArray().Select(t => t.GetString()!));
        var members = root.GetProperty("members").EnumerateArray().ToArray();
        Assert.Equal(Count, members.Length);
        for (var i = 0; i < Count; i++)
        {
            var expected = server.Expected.Members![i];
            var member = members[i];
            Assert.Equal(["id", "name", "description", "address", "value", "updateTime"], member.EnumerateObject().Select(p => p.Name));
            Assert.Equal(expected.Id, member.GetProperty("id").GetInt32());
            Assert.Equal(expected.Name, member.GetProperty("name").GetString());
            Assert.Equal(expected.Description, member.GetProperty("description").GetString());
            Assert.Equal(expected.Address, member.GetProperty("address").GetString());
            Assert.Equal(expected.Value, member.GetProperty("value").GetDouble());
            Assert.Equal(expected.UpdateTime, member.GetProperty("updateTime").GetInt64());
        }
    }

    [Theory]
    [InlineFormatData("msgpack")]
    [InlineFormatData("protobuf")]
    [InlineFormatData("json")]
    public async Task AnIndependentJavaScriptImplementationReadsTheServedBytes(WireFormat format)
    {
        var payload = await HttpPayloads.DownloadAsync(server.Client, format, Count);

        // protobufjs reads the bytes with the schema this server publishes, not with a copy of it.
        var decoded = await HttpPayloads.WithServedSchemaAsync(server.Client, schema => InteropScripts.Decode(format.Key, payload, format == WireFormat.Protobuf ? schema : null));

        OrganizationAssert.Equal(server.Expected, Count, decoded);
    }

    private static Member ReadMember(CodedInputStream input)
    {
        var member = new Member();
        for (uint tag; (tag = input.ReadTag()) != 0;)
        {
            switch (ProtoWireFormat.GetTagFieldNumber(tag), ProtoWireFormat.GetTagWireType(tag))
            {
                case (1, ProtoWireFormat.WireType.Varint): member.Id = input.ReadInt32(); break;
                case (2, ProtoWireFormat.WireType.LengthDelimited): member.Name = input.ReadString(); break;
                case (3, ProtoWireFormat.WireType.LengthDelimited): member.Description = input.ReadString(); break;
                case (4, ProtoWireFormat.WireType.LengthDelimited): member.Address = input.ReadString(); break;
                case (5, ProtoWireFormat.WireType.Fixed64): member.Value = input.ReadDouble(); break;
                case (6, ProtoWireFormat.WireType.Varint): member.UpdateTime = input.ReadInt64(); break;
                default: Assert.Fail($"Unexpected member field {ProtoWireFormat.GetTagFieldNumber(tag)}."); break;
            }
        }

        return member;
    }
}
