using System.Buffers;
using System.Runtime.InteropServices;
using WebSerialization.Models.Codecs;
using WebSerialization.Models.MessagePack;
using WebSerialization.Models;
using WebSerialization.Tests.Support;

namespace WebSerialization.Codecs.Tests.MessagePack;

/// <summary>Encodes and decodes whole payloads through the codec's streaming encoder and decoder.</summary>
internal static class MessagePackPayloads
{
    /// <summary>Bytes from hex such as <c>"93 01 c0 c0"</c>.</summary>
    public static byte[] Hex(string hex) => Convert.FromHexString(hex.Replace(" ", string.Empty, StringComparison.Ordinal));

    /// <summary>Encodes the organization with all its members, handing them to the encoder <paramref name="batchSize"/> at a time.</summary>
    public static byte[] Encode(Organization organization, int batchSize = 7)
    {
        var output = new ArrayBufferWriter<byte>();
        var encoder = MessagePackCodec.Instance.CreateEncoder();
        var members = organization.Members;
        var written = encoder.WriteHeader(output, organization, members?.Count ?? 0);
        for (var index = 0; members is not null && index < members.Count; index += batchSize)
        {
            written += encoder.WriteMembers(output, CollectionsMarshal.AsSpan(members).Slice(index, Math.Min(batchSize, members.Count - index)));
        }

        written += encoder.WriteFooter(output);
        Assert.Equal(output.WrittenCount, written);
        return output.WrittenSpan.ToArray();
    }

    /// <summary>Decodes a whole payload in one call.</summary>
    public static Organization Decode(byte[] payload, DecodeLimits? limits = null)
    {
        var decoder = MessagePackCodec.Instance.CreateDecoder(limits ?? DecodeLimits.Default);
        var buffer = new ReadOnlySequence<byte>(payload);
        var consumed = decoder.Decode(buffer, isFinalBlock: true);
        Assert.True(decoder.IsComplete);
        Assert.Equal(buffer.End, consumed);
        return decoder.GetResult();
    }

    /// <summary>
    /// Decodes a payload as a pipe reader would: bytes arrive <paramref name="pieceSize"/> at a time (or in random
    /// pieces when <paramref name="random"/> is given), the unconsumed rest is handed back with the next piece,
    /// and every buffer is cut into segments of <paramref name="segmentSize"/> bytes.
    /// </summary>
    public static Organization DecodeInPieces(byte[] payload, int pieceSize, int segmentSize, DecodeLimits? limits = null, Random? random = null)
    {
        var decoder = MessagePackCodec.Instance.CreateDecoder(limits ?? DecodeLimits.Default);
        var consumed = 0;
        var received = 0;
        do
        {
            received = Math.Min(payload.Length, received + (random?.Next(1, 2 * pieceSize) ?? pieceSize));
            var buffer = BufferSegment.Split(payload.AsMemory(consumed, received - consumed), segmentSize);
            var position = decoder.Decode(buffer, isFinalBlock: received == payload.Length);
            consumed += (int)buffer.Slice(0, position).Length;
        }
        while (received < payload.Length);

        Assert.True(decoder.IsComplete);
        Assert.Equal(payload.Length, consumed);
        return decoder.GetResult();
    }

    /// <summary>Decodes <paramref name="payload"/> in one final call and returns what it threw.</summary>
    public static WireFormatException DecodeFails(byte[] payload, DecodeLimits? limits = null, int segmentSize = int.MaxValue)
    {
        var decoder = MessagePackCodec.Instance.CreateDecoder(limits ?? DecodeLimits.Default);
        return Assert.Throws<WireFormatException>(() => decoder.Decode(BufferSegment.Split(payload, segmentSize), isFinalBlock: true));
    }
}
