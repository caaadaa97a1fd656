using System.Buffers;
using System.IO.Pipelines;
using System.Runtime.InteropServices;
using WebSerialization.Models.Codecs;
using WebSerialization.Models.Streaming;
using WebSerialization.Models;
using WebSerialization.Tests.Support;

namespace WebSerialization.Codecs.Tests.Support;

/// <summary>Runs a codec the way the server does: encoder into a buffer writer, decoder fed piece by piece.</summary>
internal static class CodecHarness
{
    private const int MembersPerBatch = 64;

    /// <summary>Encodes <paramref name="organization"/> into memory (small payloads only).</summary>
    public static byte[] Encode(IWireFormatCodec codec, Organization organization)
    {
        var output = new ArrayBufferWriter<byte>();
        var encoder = codec.CreateEncoder();
        var members = organization.Members;
        var count = members?.Count ?? 0;
        encoder.WriteHeader(output, organization, count);
        for (var index = 0; index < count; index += MembersPerBatch)
        {
            encoder.WriteMembers(output, CollectionsMarshal.AsSpan(members).Slice(index, Math.Min(MembersPerBatch, count - index)));
        }

        encoder.WriteFooter(output);
        return output.WrittenSpan.ToArray();
    }

    /// <summary>Decodes <paramref name="payload"/> delivered <paramref name="chunkSize"/> bytes at a time.</summary>
    public static Organization Decode(IWireFormatCodec codec, byte[] payload, int chunkSize = int.MaxValue, DecodeLimits? limits = null) =>
        DecodeInChunks(codec, payload, chunkSize, limits).Organization;

    /// <summary>
    /// Decodes <paramref name="payload"/> as a pipe would deliver it: each call sees the bytes left unconsumed by the
    /// previous call plus one more chunk, in segments of the chunk size, and only the last call is final.
    /// </summary>
    /// <returns>The organization, and the most bytes the decoder left unconsumed after any call.</returns>
    public static (Organization Organization, long MaxPending) DecodeInChunks(IWireFormatCodec codec, byte[] payload, int chunkSize, DecodeLimits? limits = null)
    {
        var all = BufferSegment.Split(payload, (int)Math.Clamp(chunkSize, 1, Math.Max(1, payload.Length)));
        var decoder = codec.CreateDecoder(limits ?? DecodeLimits.Default);
        var consumed = all.Start;
        var end = all.Start;
        long delivered = 0;
        long maxPending = 0;
        while (true)
        {
            // Positions are found from the previous end, not from the start, or one-byte chunks would take quadratic time.
            var chunk = Math.Min(all.Length - delivered, chunkSize);
            end = all.GetPosition(chunk, end);
            delivered += chunk;
            var visible = all.Slice(consumed, end);
            var isFinal = delivered == all.Length;
            consumed = decoder.Decode(visible, isFinal);
            maxPending = Math.Max(maxPending, visible.Slice(consumed).Length);
            if (isFinal)
            {
                break;
            }
        }

        Assert.True(decoder.IsComplete, "The decoder did not complete after the final block.");
        return (decoder.GetResult(), maxPending);
    }

    /// <summary>Decodes a whole payload given at once, in whatever segments <paramref name="payload"/> has.</summary>
    public static Organization DecodeAll(IWireFormatCodec codec, ReadOnlySequence<byte> payload, DecodeLimits? limits = null)
    {
        var decoder = codec.CreateDecoder(limits ?? DecodeLimits.Default);
        var consumed = decoder.Decode(payload, isFinalBlock: true);
        Assert.Equal(payload.End, consumed);
        Assert.True(decoder.IsComplete);
        return decoder.GetResult();
    }

    /// <summary>The exception decoding <paramref name="payload"/> fails with.</summary>
    public static WireFormatException DecodeFailure(IWireFormatCodec codec, byte[] payload, int chunkSize = int.MaxValue, DecodeLimits? limits = null) =>
        Assert.Throws<WireFormatException>(() => Decode(codec, payload, chunkSize, limits));

    /// <summary>
    /// Streams <paramref name="organization"/> through a <see cref="Pipe"/> with <see cref="OrganizationStreamWriter"/>
    /// while decoding from the other end, as a client posting to the server would: memory stays at the pipe's size.
    /// </summary>
    /// <returns>The decoded organization, and the most bytes the decoder left unconsumed after any call.</returns>
    public static async Task<(Organization Organization, long MaxPending)> RoundTripThroughPipeAsync(IWireFormatCodec codec, Organization organization)
    {
        var pipe = new Pipe(new PipeOptions(pauseWriterThreshold: 256 * 1024, resumeWriterThreshold: 128 * 1024, useSynchronizationContext: false));
        var writing = Task.Run(async () =>
        {
            try
            {
                await OrganizationStreamWriter.WriteAsync(pipe.Writer, codec.CreateEncoder(), organization, organization.Members?.Count ?? 0, CancellationToken.None);
                await pipe.Writer.CompleteAsync();
            }
            catch (Exception e)
            {
                await pipe.Writer.CompleteAsync(e);
                throw;
            }
        });

        var decoder = codec.CreateDecoder(DecodeLimits.Default);
        long maxPending = 0;
        try
        {
            while (true)
            {
                var result = await pipe.Reader.ReadAsync();
                var buffer = result.Buffer;
                var consumed = decoder.Decode(buffer, result.IsCompleted);
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

        await writing;
        return (decoder.GetResult(), maxPending);
    }
}
