using System.Buffers;
using System.Buffers.Binary;
using System.Text;

namespace WebSerialization.Benchmarks.Contenders;

/// <summary>
/// Not a format anyone should ship: the least work any serializer of this object model has to do, so that the targets
/// can say how much of a row's time is the object model's and how much its own. Nothing is checked or compressed.
/// </summary>
/// <remarks>
/// Layout: (int32 id, int32 tagCount, [text...], int32 memberCount, [(int32 id, text name, text description,
/// text address, float64 value, int64 updateTime)...]), text = (int32 byteCount or -1 for null, UTF-8 bytes), all
/// little-endian; a count of -1 is a null list.
/// </remarks>
public sealed class ObjectModelFloor() : OrganizationSerializer(
    "floor (no format)",
    ContenderFamily.Floor,
    "A measuring stick, not a format: fixed-width numbers and length-prefixed UTF-8 with no checks, written into the " +
    "recycled pipe buffer, and read back into a list sized up front. Its times are what the object model itself " +
    "costs (transcoding 3,000,000 texts; allocating 1,000,000 members and 3,000,000 strings, and the collections " +
    "that follow): no row can go much below them. Left out of the \"fastest row\" targets.")
{
    // int32 id + three text lengths + float64 + int64.
    private const int FixedMemberBytes = 4 + (3 * 4) + 8 + 8;

    private readonly DiscardingPipeWriter _output = new();

    public override byte[] SerializeToArray(Organization organization)
    {
        var output = new ArrayBufferWriter<byte>();
        Write(output, organization);
        return output.WrittenSpan.ToArray();
    }

    public override long Serialize(Organization organization)
    {
        _output.Reset();
        Write(_output, organization);
        return _output.BytesWritten;
    }

    public override Organization Deserialize(PreparedPayload payload)
    {
        ReadOnlySpan<byte> bytes = payload.Bytes;
        var offset = 0;
        var id = ReadInt32(bytes, ref offset);
        var tagCount = ReadInt32(bytes, ref offset);
        var tags = tagCount < 0 ? null : new string[tagCount];
        for (var i = 0; i < tagCount; i++)
        {
            tags![i] = ReadText(bytes, ref offset)!;
        }

        var memberCount = ReadInt32(bytes, ref offset);
        var members = memberCount < 0 ? null : new List<Member>(memberCount);
        for (var i = 0; i < memberCount; i++)
        {
            members!.Add(new Member
            {
                Id = ReadInt32(bytes, ref offset),
                Name = ReadText(bytes, ref offset),
                Description = ReadText(bytes, ref offset),
                Address = ReadText(bytes, ref offset),
                Value = BinaryPrimitives.ReadDoubleLittleEndian(bytes[offset..]),
                UpdateTime = BinaryPrimitives.ReadInt64LittleEndian(bytes[(offset + 8)..]),
            });
            offset += 16;
        }

        return new Organization { Id = id, Tags = tags, Members = members };
    }

    private static void Write(IBufferWriter<byte> output, Organization organization)
    {
        var span = output.GetSpan(8);
        BinaryPrimitives.WriteInt32LittleEndian(span, organization.Id);
        BinaryPrimitives.WriteInt32LittleEndian(span[4..], organization.Tags?.Length ?? -1);
        output.Advance(8);
        foreach (var tag in organization.Tags ?? [])
        {
            output.Advance(WriteText(output.GetSpan(4 + Encoding.UTF8.GetMaxByteCount(tag?.Length ?? 0)), tag));
        }

        var members = organization.Members;
        BinaryPrimitives.WriteInt32LittleEndian(output.GetSpan(4), members?.Count ?? -1);
        output.Advance(4);
        foreach (var member in members ?? [])
        {
            var (name, description, address) = (member.Name, member.Description, member.Address);
            span = output.GetSpan(FixedMemberBytes + Encoding.UTF8.GetMaxByteCount((name?.Length ?? 0) + (description?.Length ?? 0) + (address?.Length ?? 0)));
            BinaryPrimitives.WriteInt32LittleEndian(span, member.Id);
            var written = 4;
            written += WriteText(span[written..], name);
            written += WriteText(span[written..], description);
            written += WriteText(span[written..], address);
            BinaryPrimitives.WriteDoubleLittleEndian(span[written..], member.Value);
            BinaryPrimitives.WriteInt64LittleEndian(span[(written + 8)..], member.UpdateTime);
            output.Advance(written + 16);
        }
    }

    // A text's length (-1 for null) and UTF-8 bytes; returns the bytes written.
    private static int WriteText(Span<byte> span, string? text)
    {
        var length = text is null ? -1 : Encoding.UTF8.GetBytes(text, span[4..]);
        BinaryPrimitives.WriteInt32LittleEndian(span, length);
        return 4 + Math.Max(length, 0);
    }

    private static int ReadInt32(ReadOnlySpan<byte> bytes, ref int offset)
    {
        var value = BinaryPrimitives.ReadInt32LittleEndian(bytes[offset..]);
        offset += 4;
        return value;
    }

    private static string? ReadText(ReadOnlySpan<byte> bytes, ref int offset)
    {
        var length = ReadInt32(bytes, ref offset);
        if (length < 0)
        {
            return null;
        }

        var text = Encoding.UTF8.GetString(bytes.Slice(offset, length));
        offset += length;
        return text;
    }
}
