using System.Diagnostics;
using System.IO.Pipelines;
using System.Text;
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
    private static readonly int[] EdgeInt32s = [0, 1, -1, 127, 128, 255, 256, 65535, 65536, -32, -33, -128, -129, -32768, -32769, int.MaxValue, int.MinValue];

    private static readonly long[] EdgeInt64s = [0, -1, 127, 128, uint.MaxValue, uint.MaxValue + 1L, int.MinValue - 1L, long.MaxValue, long.MinValue, OrganizationGenerator.BaseUpdateTime];

    private static readonly double[] EdgeDoubles =
    [
        0.0, -0.0, double.PositiveInfinity, double.NegativeInfinity, double.NaN, double.Epsilon, -double.Epsilon,
        double.MaxValue, double.MinValue, 1.5, BitConverter.Int64BitsToDouble(0x7ff0000000000001), // a signalling NaN
    ];

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
            var organization = RandomOrganization(random);
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

    private static Organization RandomOrganization(Random random) => new()
    {
        Id = random.Next(3) == 0 ? EdgeInt32s[random.Next(EdgeInt32s.Length)] : random.Next(int.MinValue, int.MaxValue),
        Tags = random.Next(4) switch
        {
            0 => null,
            1 => [],
            _ => [.. Enumerable.Range(0, random.Next(1, 20)).Select(_ => RandomString(random)!)],
        },
        Members = random.Next(4) switch
        {
            0 => null,
            1 => [],
            _ => [.. Enumerable.Range(0, random.Next(1, 40)).Select(_ => RandomMember(random))],
        },
    };

    private static Member RandomMember(Random random) => new()
    {
        Id = random.Next(2) == 0 ? EdgeInt32s[random.Next(EdgeInt32s.Length)] : random.Next(int.MinValue, int.MaxValue),
        Name = RandomString(random),
        Description = RandomString(random),
        Address = RandomString(random),
        Value = RandomDouble(random),
        UpdateTime = random.Next(2) == 0 ? EdgeInt64s[random.Next(EdgeInt64s.Length)] : random.NextInt64(long.MinValue, long.MaxValue),
    };

    private static double RandomDouble(Random random) => random.Next(4) switch
    {
        0 => EdgeDoubles[random.Next(EdgeDoubles.Length)],

        // A NaN with a random sign and payload.
        1 => BitConverter.Int64BitsToDouble(unchecked((long)0x7ff0000000000000UL | (random.NextInt64(1, 1L << 52)) | (random.Next(2) == 0 ? 0 : long.MinValue))),
        2 => BitConverter.Int64BitsToDouble(random.NextInt64(long.MinValue, long.MaxValue)),
        _ => random.NextDouble() * 1e9,
    };

    // Null, empty, ASCII, mixed Unicode with surrogate pairs, and lengths around the fixstr / str 8 / str 16 edges.
    private static string? RandomString(Random random)
    {
        switch (random.Next(8))
        {
            case 0:
                return null;
            case 1:
                return string.Empty;
            case 2:
                return new string('x', random.Next(29, 34)) + (random.Next(2) == 0 ? string.Empty : "\u00e9");
            case 3:
                return new string('y', random.Next(250, 262));
            case 4:
                return RandomUnicode(random, random.Next(200, 3000));
            default:
                return RandomUnicode(random, random.Next(1, 40));
        }
    }

    private static string RandomUnicode(Random random, int scalars)
    {
        var builder = new StringBuilder(scalars * 2);
        for (var i = 0; i < scalars; i++)
        {
            var scalar = random.Next(5) switch
            {
                0 => random.Next(0x00, 0x80), // 1 UTF-8 byte, NUL included
                1 => random.Next(0x80, 0x800), // 2 bytes
                2 => random.Next(0x800, 0xd800), // 3 bytes, below the surrogates
                3 => random.Next(0xe000, 0x10000), // 3 bytes, above them (U+FFFD, U+FEFF, U+FFFF included)
                _ => random.Next(0x10000, 0x110000), // 4 bytes: a surrogate pair in UTF-16
            };
            builder.Append(char.ConvertFromUtf32(scalar));
        }

        return builder.ToString();
    }
}
