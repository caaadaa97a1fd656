using System.Buffers;
using System.IO.Pipelines;
using System.Runtime.InteropServices;
using System.Text;
using WebSerialization.Models;
using WebSerialization.Models.Codecs;
using WebSerialization.Models.Streaming;

namespace WebSerialization.Tests.Support;

/// <summary>
/// The one way the tests make and read payloads in memory: hex as the specs print it, an encoder driven in batches into a
/// buffer writer, and a decoder fed whole, in segments or piece by piece, the way the server drives both.
/// </summary>
public static class CodecHarness
{
    /// <summary>Bytes from hex such as <c>"93 01 c0 c0"</c>: spaces are ignored, either case is read.</summary>
    public static byte[] Hex(string hex) => Convert.FromHexString(hex.Replace(" ", string.Empty, StringComparison.Ordinal));

    /// <summary>
    /// Encodes <paramref name="organization"/> into memory (small payloads only), handing its members to the encoder
    /// <paramref name="batchSize"/> at a time; the byte counts the encoder returns must add up to what it wrote.
    /// </summary>
    public static byte[] Encode(IWireFormatCodec codec, Organization organization, int batchSize = 64)
    {
        var output = new ArrayBufferWriter<byte>();
        var encoder = codec.CreateEncoder();
        var members = organization.Members;
        var count = members?.Count ?? 0;
        var written = encoder.WriteHeader(output, organization, count);
        for (var index = 0; index < count; index += batchSize)
        {
            written += encoder.WriteMembers(output, CollectionsMarshal.AsSpan(members).Slice(index, Math.Min(batchSize, count - index)));
        }

        written += encoder.WriteFooter(output);
        Assert.Equal(output.WrittenCount, written);
        return output.WrittenSpan.ToArray();
    }

    /// <summary>Encodes as a conversion does: every member from a view of its fields as UTF-8, none from a <see cref="Member"/>.</summary>
    public static byte[] EncodeFromViews(IWireFormatCodec codec, Organization organization)
    {
        var output = new ArrayBufferWriter<byte>();
        var encoder = codec.CreateEncoder();
        var members = organization.Members ?? [];
        encoder.WriteHeader(output, new Organization { Id = organization.Id, Tags = organization.Tags, Members = organization.Members is null ? null : [] }, members.Count);
        foreach (var member in members)
        {
            encoder.WriteMember(output, new MemberView(member.Id, Utf8(member.Name), Utf8(member.Description), Utf8(member.Address), member.Value, member.UpdateTime));
        }

        encoder.WriteFooter(output);
        return output.WrittenSpan.ToArray();
    }

    /// <summary>Decodes <paramref name="payload"/> delivered <paramref name="chunkSize"/> bytes at a time.</summary>
    public static Organization Decode(IWireFormatCodec codec, byte[] payload, int chunkSize = int.MaxValue, DecodeLimits? limits = null) =>
        DecodeInChunks(codec, payload, chunkSize, limits).Organization;

    /// <summary>Decodes a whole payload in one final call, in whatever segments <paramref name="payload"/> has; every byte must be consumed.</summary>
    public static Organization Decode(IWireFormatCodec codec, ReadOnlySequence<byte> payload, DecodeLimits? limits = null)
    {
        var decoder = codec.CreateDecoder(limits ?? DecodeLimits.Default);
        var consumed = decoder.Decode(payload, isFinalBlock: true);
        Assert.Equal(payload.End, consumed);
        Assert.True(decoder.IsComplete);
        return decoder.GetResult();
    }

    /// <summary>
    /// Decodes <paramref name="payload"/> as a pipe would deliver it: each call sees the bytes left unconsumed by the
    /// previous call plus one more piece, and only the last call is final. A piece is <paramref name="chunkSize"/> bytes,
    /// or between 1 and twice that when <paramref name="random"/> is given; the bytes lie in segments of
    /// <paramref name="segmentSize"/> (the chunk size unless given).
    /// </summary>
    /// <returns>The organization, and the most bytes the decoder left unconsumed after any call.</returns>
    public static (Organization Organization, long MaxPending) DecodeInChunks(
        IWireFormatCodec codec, byte[] payload, int chunkSize, DecodeLimits? limits = null, Random? random = null, int? segmentSize = null)
    {
        var all = BufferSegment.Split(payload, Math.Clamp(segmentSize ?? chunkSize, 1, Math.Max(1, payload.Length)));
        var decoder = codec.CreateDecoder(limits ?? DecodeLimits.Default);
        var consumed = all.Start;
        var end = all.Start;
        long delivered = 0;
        long maxPending = 0;
        while (true)
        {
            // Positions are found from the previous end, not from the start, or one-byte chunks would take quadratic time.
            var chunk = Math.Min(all.Length - delivered, random?.Next(1, 2 * chunkSize) ?? chunkSize);
            end = all.GetPosition(chunk, end);
            delivered += chunk;
            var visible = all.Slice(consumed, end);
            var isFinal = delivered == all.Length;
            consumed = decoder.Decode(visible, isFinal);
            maxPending = Math.Max(maxPending, visible.Slice(consumed).Length);
            if (isFinal)
            {
                Assert.Equal(visible.End, consumed);
                break;
            }
        }

        Assert.True(decoder.IsComplete, "The decoder did not complete after the final block.");
        return (decoder.GetResult(), maxPending);
    }

    /// <summary>The exception decoding <paramref name="payload"/>, delivered <paramref name="chunkSize"/> bytes at a time, fails with.</summary>
    public static WireFormatException DecodeFailure(IWireFormatCodec codec, byte[] payload, int chunkSize = int.MaxValue, DecodeLimits? limits = null) =>
        Assert.Throws<WireFormatException>(() => Decode(codec, payload, chunkSize, limits));

    /// <summary>The exception one call with <paramref name="payload"/> fails with: the last call, or one that waits for more bytes.</summary>
    public static WireFormatException DecodeFailure(IWireFormatCodec codec, ReadOnlySequence<byte> payload, bool isFinalBlock = true, DecodeLimits? limits = null)
    {
        var decoder = codec.CreateDecoder(limits ?? DecodeLimits.Default);
        return Assert.Throws<WireFormatException>(() => decoder.Decode(payload, isFinalBlock));
    }

    /// <summary>
    /// What decoding <paramref name="organization"/>'s payload in <paramref name="format"/> gives back: itself, except
    /// that protobuf (proto3) writes nothing for an empty list, so its decoder reads an empty list as none.
    /// </summary>
    public static Organization AsDecoded(WireFormat format, Organization organization) => format != WireFormat.Protobuf ? organization : new()
    {
        Id = organization.Id,
        Tags = organization.Tags is { Length: > 0 } tags ? tags : null,
        Members = organization.Members is { Count: > 0 } members ? members : null,
    };

    /// <summary>
    /// Streams <paramref name="organization"/> through a <see cref="Pipe"/> with <see cref="OrganizationStreamWriter"/>
    /// while decoding from the other end, as a client posting to the server would: memory stays at the pipe's size.
    /// </summary>
    /// <returns>The decoded organization, the bytes written, and the most bytes the decoder left unconsumed after any call.</returns>
    public static async Task<(Organization Organization, long Written, long MaxPending)> RoundTripThroughPipeAsync(IWireFormatCodec codec, Organization organization)
    {
        var pipe = new Pipe(new PipeOptions(pauseWriterThreshold: 256 * 1024, resumeWriterThreshold: 128 * 1024, useSynchronizationContext: false));
        var writing = Task.Run(async () =>
        {
            try
            {
                var written = await OrganizationStreamWriter.WriteAsync(pipe.Writer, codec.CreateEncoder(), organization, organization.Members?.Count ?? 0, CancellationToken.None);
                await pipe.Writer.CompleteAsync();
                return written;
            }
            catch (Exception e)
            {
                await pipe.Writer.CompleteAsync(e);
                throw;
            }
        });

        var decoder = codec.CreateDecoder(DecodeLimits.Default);
        long maxPending = 0;
        long read = 0;
        try
        {
            while (true)
            {
                var result = await pipe.Reader.ReadAsync();
                var buffer = result.Buffer;
                var consumed = decoder.Decode(buffer, result.IsCompleted);
                read += buffer.Slice(0, consumed).Length;
                maxPending = Math.Max(maxPending, buffer.Slice(consumed).Length);
                pipe.Reader.AdvanceTo(consumed, buffer.End);
                if (result.IsCompleted)
                {
                    break;
                }
            }
        }
        finally
        {
            // Unblocks the writer if decoding failed, so that the failure, not a hang, is what the test reports.
            await pipe.Reader.CompleteAsync();
        }

        var total = await writing;
        Assert.Equal(total, read);
        return (decoder.GetResult(), total, maxPending);
    }

    /// <summary>Writes <paramref name="organization"/> with <see cref="OrganizationStreamWriter"/> in chunks of <paramref name="chunkSize"/> and returns every byte.</summary>
    public static byte[] WriteStreamed(IWireFormatCodec codec, Organization organization, int chunkSize)
    {
        using var stream = new MemoryStream();
        var output = PipeWriter.Create(stream, new StreamPipeWriterOptions(leaveOpen: true));

        // A stream pipe's flushes into memory complete synchronously.
        var written = OrganizationStreamWriter.WriteAsync(output, codec.CreateEncoder(), organization, organization.Members?.Count ?? 0, CancellationToken.None, chunkSize)
            .GetAwaiter().GetResult();
        output.Complete();
        Assert.Equal(stream.Length, written);
        return stream.ToArray();
    }

    private static Utf8Text Utf8(string? text) => text is null ? Utf8Text.Null : new Utf8Text(Encoding.UTF8.GetBytes(text));
}
