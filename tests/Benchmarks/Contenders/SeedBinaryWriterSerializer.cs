using System.Text;
using WebSerialization.Models;

namespace WebSerialization.Benchmarks.Contenders;

/// <summary>
/// The seed article's <c>BinarySerializeHelper</c>, rewritten from its description: a <see cref="BinaryWriter"/> over a
/// <see cref="MemoryStream"/> writing fixed-width ints and doubles and length-prefixed UTF-8 strings (BinaryWriter's
/// 7-bit length), then <c>ToArray()</c>; a <see cref="BinaryReader"/> over the array reading them back into a list that
/// grows as it goes. Like the article, it writes a null text as "" and reads no tags as null.
/// </summary>
public sealed class SeedBinaryWriterSerializer : OrganizationSerializer
{
    public override string Name => "seed BinaryWriter";

    public override string Description =>
        "The seed's `BinarySerializeHelper`: `BinaryWriter` over a `MemoryStream` (int Id, tag count and strings, member " +
        "count, then per member Id, Name, Description, Address ?? \"\", Value, UpdateTime), `ToArray()`; `BinaryReader` back.";

    public override ContenderFamily Family => ContenderFamily.SeedBinaryWriter;

    public override byte[] SerializeToArray(Organization organization)
    {
        ArgumentNullException.ThrowIfNull(organization);
        using var stream = new MemoryStream();
        using var writer = new BinaryWriter(stream, Encoding.UTF8);
        writer.Write(organization.Id);
        WriteTags(writer, organization.Tags);
        WriteMembers(writer, organization.Members);
        return stream.ToArray();
    }

    public override long Serialize(Organization organization) => SerializeToArray(organization).Length;

    public override Organization Deserialize(PreparedPayload payload)
    {
        ArgumentNullException.ThrowIfNull(payload);
        using var stream = new MemoryStream(payload.Bytes);
        using var reader = new BinaryReader(stream, Encoding.UTF8);
        return new Organization
        {
            Id = reader.ReadInt32(),
            Tags = ReadTags(reader),
            Members = ReadMembers(reader),
        };
    }

    private static void WriteTags(BinaryWriter writer, string[]? tags)
    {
        var count = tags?.Length ?? 0;
        writer.Write(count);
        for (var i = 0; i < count; i++)
        {
            writer.Write(tags![i]);
        }
    }

    private static void WriteMembers(BinaryWriter writer, List<Member>? members)
    {
        var count = members?.Count ?? 0;
        writer.Write(count);
        for (var i = 0; i < count; i++)
        {
            var member = members![i];
            writer.Write(member.Id);
            writer.Write(member.Name ?? string.Empty);
            writer.Write(member.Description ?? string.Empty);
            writer.Write(member.Address ?? string.Empty);
            writer.Write(member.Value);
            writer.Write(member.UpdateTime);
        }
    }

    private static string[]? ReadTags(BinaryReader reader)
    {
        var count = reader.ReadInt32();
        if (count <= 0)
        {
            return null;
        }

        var tags = new string[count];
        for (var i = 0; i < count; i++)
        {
            tags[i] = reader.ReadString();
        }

        return tags;
    }

    private static List<Member>? ReadMembers(BinaryReader reader)
    {
        var count = reader.ReadInt32();
        if (count <= 0)
        {
            return null;
        }

        var members = new List<Member>();
        for (var i = 0; i < count; i++)
        {
            members.Add(new Member
            {
                Id = reader.ReadInt32(),
                Name = reader.ReadString(),
                Description = reader.ReadString(),
                Address = reader.ReadString(),
                Value = reader.ReadDouble(),
                UpdateTime = reader.ReadInt64(),
            });
        }

        return members;
    }
}
