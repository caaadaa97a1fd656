using System.Buffers;
using WebSerialization.Models.Binary;
using WebSerialization.Models.Codecs;
using WebSerialization.Models;
using WebSerialization.Tests.Support;

namespace WebSerialization.Codecs.Tests.Binary;

/// <summary>Encodes and decodes whole payloads through the codec's streaming contract, the way the API drives it.</summary>
internal static class BinaryPayload
{
    public static byte[] Encode(Organization organization, int batchSize = 64)
    {
        var output = new ArrayBufferWriter<byte>();
        var encoder = BinaryCodec.Instance.CreateEncoder();
        var members = organization.Members ?? [];
        var written = encoder.WriteHeader(output, organization, members.Count);
        for (var index = 0; index < members.Count; index += batchSize)
        {
            var batch = members.Skip(index).Take(batchSize).ToArray();
            written += encoder.WriteMembers(output, batch);
        }

        written += encoder.WriteFooter(output);
        Assert.Equal(output.WrittenCount, written);
        return output.WrittenSpan.ToArray();
    }

    /// <summary>Encodes as a conversion does: every member from a view of its fields as UTF-8, none from a <see cref="Member"/>.</summary>
    public static byte[] EncodeFromViews(Organization organization)
    {
        var output = new ArrayBufferWriter<byte>();
        var encoder = BinaryCodec.Instance.CreateEncoder();
        var members = organization.Members ?? [];
        encoder.WriteHeader(output, new Organization { Id = organization.Id, Tags = organization.Tags, Members = organization.Members is null ? null : [] }, members.Count);
        foreach (var member in members)
        {
            encoder.WriteMember(output, new MemberView(member.Id, Utf8(member.Name), Utf8(member.Description), Utf8(member.Address), member.Value, member.UpdateTime));
        }

        encoder.WriteFooter(output);
        return output.WrittenSpan.ToArray();
    }

    public static Organization Decode(byte[] payload, DecodeLimits? limits = null) =>
        Decode(new ReadOnlySequence<byte>(payload), limits);

    public static Organization Decode(ReadOnlySequence<byte> payload, DecodeLimits? limits = null)
    {
        var decoder = BinaryCodec.Instance.CreateDecoder(limits ?? DecodeLimits.Default);
        var consumed = decoder.Decode(payload, isFinalBlock: true);
        Assert.True(decoder.IsComplete);
        Assert.Equal(payload.End, consumed);
        return decoder.GetResult();
    }

    /// <summary>
    /// Decodes the way a pipe reader does: bytes arrive <paramref name="chunkSize"/> at a time, and what the decoder did
    /// not consume is handed back with the next chunk.
    /// </summary>
    public static Organization DecodeInChunks(byte[] payload, int chunkSize)
    {
        var decoder = BinaryCodec.Instance.CreateDecoder(DecodeLimits.Default);
        var pending = Array.Empty<byte>();
        for (var start = 0; start < payload.Length; start += chunkSize)
        {
            var chunk = payload.AsSpan(start, Math.Min(chunkSize, payload.Length - start));
            byte[] joined = [.. pending, .. chunk];
            var buffer = BufferSegment.Split(joined, 1);
            var consumed = decoder.Decode(buffer, isFinalBlock: false);
            pending = buffer.Slice(consumed).ToArray();
        }

        decoder.Decode(new ReadOnlySequence<byte>(pending), isFinalBlock: true);
        Assert.True(decoder.IsComplete);
        return decoder.GetResult();
    }

    private static Utf8Text Utf8(string? text) => text is null ? Utf8Text.Null : new Utf8Text(System.Text.Encoding.UTF8.GetBytes(text));
}
