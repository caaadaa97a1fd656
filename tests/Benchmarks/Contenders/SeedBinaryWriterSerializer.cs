using System.Text;

namespace WebSerialization.Benchmarks.Contenders;

/// <summary>
/// The seed article's <c>BinarySerializeHelper</c>, rewritten from its description. Like the article, it writes a null
/// text as "" and reads no tags as null, and its reader's list grows as it goes.
/// </summary>
public sealed class SeedBinaryWriterSerializer() : OrganizationSerializer(
    "seed BinaryWriter",
    ContenderFamily.SeedBinaryWriter,
    "The seed's `BinarySerializeHelper`: `BinaryWriter` over a `MemoryStream` (int Id, tag count and strings, member " +
    "count, then per member Id, Name, Description, Address ?? \"\", Value, UpdateTime), `ToArray()`; `BinaryReader` back.")
{
    public override byte[] SerializeToArray(Organization organization)
    {
        using var stream = new MemoryStream();
        using var writer = new BinaryWriter(stream, Encoding.UTF8);
        writer.Write(organization.Id);
        var tags = organization.Tags ?? [];
        writer.Write(tags.Length);
        foreach (var tag in tags)
        {
            writer.Write(tag);
        }

        var members = organization.Members ?? [];
        writer.Write(members.Count);
        foreach (var member in members)
        {
            writer.Write(member.Id);
            writer.Write(member.Name ?? string.Empty);
            writer.Write(member.Description ?? string.Empty);
            writer.Write(member.Address ?? string.Empty);
            writer.Write(member.Value);
            writer.Write(member.UpdateTime);
        }

        return stream.ToArray();
    }

    public override Organization Deserialize(PreparedPayload payload)
    {
        using var reader = new BinaryReader(new MemoryStream(payload.Bytes), Encoding.UTF8);
        var id = reader.ReadInt32();
        var tagCount = reader.ReadInt32();
        var tags = tagCount <= 0 ? null : new string[tagCount];
        for (var i = 0; i < tagCount; i++)
        {
            tags![i] = reader.ReadString();
        }

        var memberCount = reader.ReadInt32();
        var members = memberCount <= 0 ? null : new List<Member>();
        for (var i = 0; i < memberCount; i++)
        {
            members!.Add(new Member
            {
                Id = reader.ReadInt32(),
                Name = reader.ReadString(),
                Description = reader.ReadString(),
                Address = reader.ReadString(),
                Value = reader.ReadDouble(),
                UpdateTime = reader.ReadInt64(),
            });
        }

        return new Organization { Id = id, Tags = tags, Members = members };
    }
}
