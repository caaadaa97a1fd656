using System.Diagnostics;
using System.IO.Pipelines;
using WebSerialization.Codecs.Tests.Support;
using WebSerialization.Models.Codecs;
using WebSerialization.Models.MessagePack;
using WebSerialization.Models.Streaming;
using WebSerialization.Models;
using WebSerialization.Tests.Support;
using Xunit.Abstractions;
using static WebSerialization.Codecs.Tests.MessagePack.MessagePackPayloads;

namespace WebSerialization.Codecs.Tests.MessagePack;

/// <summary>Round trips through the encoder and the decoder: seeded random organizations, and the seed's million members.</summary>
public class MessagePackCodecTests(ITestOutputHelper output)
{
    [Fact]
    public void IsTheCodecForMessagePack()
    {
        Assert.Same(MessagePackCodec.Instance, WireFormat.MessagePack.Codec);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(4)]
    public void RoundTripsSeededRandomOrganizations(int seed)
    {
        var random = new Random(seed);
        for (var i = 0; i < 60; i++)
        {
            var organization = OrganizationGen.Random((seed * 100) + i);
            var payload = Encode(organization, batchSize: random.Next(1, 70));

            OrganizationAssert.Equal(organization, Decode(payload));
            OrganizationAssert.Equal(organization, DecodeInPieces(payload, pieceSize: random.Next(1, 300), segmentSize: random.Next(1, 50), random: random));
        }
    }

    [Fact]
    public async Task RoundTripsTheMillionMemberOrganizationThroughAPipe()
    {
        var organization = OrganizationGenerator.Create();
        var members = organization.Members!;
        var pipe = new Pipe();
        var decoder = MessagePackCodec.Instance.CreateDecoder(DecodeLimits.Default);
        var stopwatch = Stopwatch.StartNew();

        // Encoder and decoder run side by side, as server and client would; the pipe's backpressure bounds memory.
        var decoding = Task.Run(() => DecodeAsync(pipe.Reader, decoder));
        var written = await OrganizationStreamWriter.WriteAsync(pipe.Writer, MessagePackCodec.Instance.CreateEncoder(), organization, members.Count, CancellationToken.None);
        await pipe.Writer.CompleteAsync();
        var read = await decoding;
        stopwatch.Stop();

        output.WriteLine($"{members.Count:N0} members: {written:N0} bytes ({written / 1e6:F1} MB, {(double)written / members.Count:F1} bytes a member), streamed and decoded in {stopwatch.ElapsedMilliseconds} ms");
        Assert.Equal(written, read);
        OrganizationAssert.Equal(organization, decoder.GetResult());
    }

    private static async Task<long> DecodeAsync(PipeReader reader, IOrganizationDecoder decoder)
    {
        long consumedTotal = 0;
        while (true)
        {
            var result = await reader.ReadAsync();
            var buffer = result.Buffer;
            var consumed = decoder.Decode(buffer, isFinalBlock: result.IsCompleted);
            consumedTotal += buffer.Slice(0, consumed).Length;
            reader.AdvanceTo(consumed, buffer.End);
            if (result.IsCompleted)
            {
                await reader.CompleteAsync();
                return consumedTotal;
            }
        }
    }
}
