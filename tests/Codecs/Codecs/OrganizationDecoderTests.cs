using WebSerialization.Codecs.Tests.Support;
using WebSerialization.Models.Codecs;
using WebSerialization.Models.Streaming;
using WebSerialization.Models;
using WebSerialization.Tests.Support;
using Xunit.Abstractions;

namespace WebSerialization.Codecs.Tests.Codecs;

/// <summary>
/// What every format's incremental decoder promises, checked the same way for all four: exact round trips whatever the
/// chunking, a bounded amount of undecoded input held between calls, only <see cref="WireFormatException"/> for
/// corrupt input, and nothing allocated beyond the decoded objects. Format-specific rules live in each format's tests.
/// </summary>
public class OrganizationDecoderTests(ITestOutputHelper output)
{
    public static TheoryData<WireFormat> Formats => [.. WireFormat.All];

    public static TheoryData<WireFormat, int, int> FormatsSeedsAndChunkSizes
    {
        get
        {
            var data = new TheoryData<WireFormat, int, int>();
            foreach (var format in WireFormat.All)
            {
                foreach (var (seed, chunkSize) in new[] { (1, int.MaxValue), (2, 1), (3, 7), (4, 4096), (5, 3) })
                {
                    data.Add(format, seed, chunkSize);
                }
            }

            return data;
        }
    }

    public static TheoryData<WireFormat, int> FormatsAndChunkSizes
    {
        get
        {
            var data = new TheoryData<WireFormat, int>();
            foreach (var format in WireFormat.All)
            {
                data.Add(format, 1);
                data.Add(format, 4096);
            }

            return data;
        }
    }

    [Theory]
    [MemberData(nameof(FormatsSeedsAndChunkSizes))]
    public void RoundTripsSeededRandomOrganizations(WireFormat format, int seed, int chunkSize)
    {
        var codec = format.Codec;
        var organization = OrganizationGen.Random(seed, 50);

        var decoded = CodecHarness.Decode(codec, CodecHarness.Encode(codec, organization), chunkSize);

        OrganizationAssert.Equal(organization, decoded);
    }

    [Theory]
    [MemberData(nameof(FormatsAndChunkSizes))]
    public void RoundTripsEveryExtremeValue(WireFormat format, int chunkSize)
    {
        var codec = format.Codec;
        var organization = OrganizationGen.Extremes();

        var decoded = CodecHarness.Decode(codec, CodecHarness.Encode(codec, organization), chunkSize);

        OrganizationAssert.Equal(organization, decoded);
    }

    [Theory]
    [MemberData(nameof(Formats))]
    public void DecodesAWholePayloadGivenInOneByteSegments(WireFormat format)
    {
        var codec = format.Codec;
        var organization = OrganizationGen.Random(6, 20);

        var decoded = CodecHarness.DecodeAll(codec, BufferSegment.Split(CodecHarness.Encode(codec, organization), 1));

        OrganizationAssert.Equal(organization, decoded);
    }

    [Theory]
    [MemberData(nameof(FormatsAndChunkSizes))]
    public void HoldsAtMostOneUnfinishedUnitBetweenCalls(WireFormat format, int chunkSize)
    {
        var codec = format.Codec;
        var organization = OrganizationGenerator.Create(2000);

        var (decoded, maxPending) = CodecHarness.DecodeInChunks(codec, CodecHarness.Encode(codec, organization), chunkSize);

        OrganizationAssert.Equal(organization, decoded);
        Assert.InRange(maxPending, 0, LargestUnfinishedUnit(format, throughPipe: false));
    }

    // A fixed seed and count, so a run is repeatable: every corrupt payload is decoded whole, in 13-byte chunks and a
    // byte at a time, and must give the same organization or the same error at the same offset each way, never another
    // exception. Random flips mostly land in texts and numbers, which stay valid in every format; what a format rejects
    // is printed, and at least half must be rejected, so a decoder that accepted anything would fail.
    [Theory]
    [MemberData(nameof(Formats))]
    public void DecodesRandomByteFlipsAlikeWhateverTheChunkingAndRejectsSome(WireFormat format)
    {
        const int Iterations = 1000;
        var codec = format.Codec;
        var payload = CodecHarness.Encode(codec, OrganizationGen.Random(7, 10));
        var random = new Random(8);
        var rejected = 0;
        for (var iteration = 0; iteration < Iterations; iteration++)
        {
            var corrupt = (byte[])payload.Clone();
            for (var flips = random.Next(1, 4); flips > 0; flips--)
            {
                corrupt[random.Next(corrupt.Length)] = (byte)random.Next(256);
            }

            var whole = Outcome(codec, corrupt, int.MaxValue, iteration);
            Assert.Equal(whole, Outcome(codec, corrupt, 13, iteration));
            Assert.Equal(whole, Outcome(codec, corrupt, 1, iteration));
            rejected += whole.StartsWith("rejected", StringComparison.Ordinal) ? 1 : 0;
        }

        output.WriteLine($"{format.Key}: {rejected} of {Iterations} corrupt payloads rejected");
        Assert.InRange(rejected, Iterations / 2, Iterations);
    }

    // The organization as the codec writes it back, or the error and where it was found.
    private static string Outcome(IWireFormatCodec codec, byte[] payload, int chunkSize, int iteration)
    {
        try
        {
            return Convert.ToHexString(CodecHarness.Encode(codec, CodecHarness.Decode(codec, payload, chunkSize)));
        }
        catch (WireFormatException e)
        {
            return $"rejected: {e.Error} {e.Limit} at {e.Offset}";
        }
        catch (Exception e)
        {
            Assert.Fail($"Iteration {iteration}, chunks of {chunkSize}: {e.GetType()}: {e.Message}");
            throw;
        }
    }

    // Format keys rather than formats, so that each row is a test case of its own in a listing.
    public static TheoryData<string, string> FormatsAndInvalidUtf8
    {
        get
        {
            // A stray continuation byte, a lead byte that never starts UTF-8, overlong forms, an encoded surrogate, a code
            // point past U+10FFFF, and a sequence cut short.
            string[] invalid = ["FF", "80", "C0AF", "E080AF", "EDA080", "F4908080", "E282"];
            var data = new TheoryData<string, string>();
            foreach (var format in WireFormat.All)
            {
                foreach (var hex in invalid)
                {
                    data.Add(format.Key, hex);
                }
            }

            return data;
        }
    }

    // Each text field (a tag, a member's name, description and address) carries the bad bytes at its start, inside and at
    // its end, in texts shorter than a word and longer: the bytes replace a marker of the same length, so the framing
    // around them stays valid and only the UTF-8 is wrong.
    [Theory]
    [MemberData(nameof(FormatsAndInvalidUtf8))]
    public void RejectsInvalidUtf8InEveryTextField(string formatKey, string invalidHex)
    {
        var format = WireFormat.FromKey(formatKey)!;
        const string Marker = "~^~^";
        var invalid = Convert.FromHexString(invalidHex);
        byte[] replacement = [.. Enumerable.Repeat((byte)'c', Marker.Length - invalid.Length), .. invalid];
        foreach (var (before, after) in new[] { (0, 0), (1, 1), (0, 9), (9, 0), (6, 14), (14, 6), (30, 30) })
        {
            var text = new string('a', before) + Marker + new string('b', after);
            Organization[] organizations =
            [
                new() { Id = 1, Tags = [text] },
                new() { Id = 1, Members = [new() { Id = 5, Name = text }] },
                new() { Id = 1, Members = [new() { Id = 5, Description = text }] },
                new() { Id = 1, Members = [new() { Id = 5, Address = text }] },
            ];

            foreach (var organization in organizations)
            {
                var payload = CodecHarness.Encode(format.Codec, organization);
                var at = payload.AsSpan().IndexOf("~^~^"u8);
                Assert.True(at >= 0 && payload.AsSpan(at + 1).IndexOf("~^~^"u8) < 0, $"{format.Key}: the marker is not written once, verbatim");
                replacement.CopyTo(payload, at);
                foreach (var chunkSize in new[] { 1, int.MaxValue })
                {
                    var error = CodecHarness.DecodeFailure(format.Codec, payload, chunkSize);
                    Assert.True(error.Error == WireFormatError.Malformed, $"{format.Key} {text}, chunks of {chunkSize}: {error.Error} {error.Message}");
                }
            }
        }
    }

    [Theory]
    [MemberData(nameof(Formats))]
    public async Task RoundTripsTheMillionMemberSeedOrganizationThroughAPipe(WireFormat format)
    {
        var codec = format.Codec;
        var organization = OrganizationGenerator.Create();

        var (decoded, maxPending) = await CodecHarness.RoundTripThroughPipeAsync(codec, organization);

        OrganizationAssert.Equal(organization, decoded);
        Assert.Equal(OrganizationChecksum.Compute(organization), OrganizationChecksum.Compute(decoded));
        Assert.InRange(maxPending, 0, LargestUnfinishedUnit(format, throughPipe: true));
    }

    [Theory]
    [MemberData(nameof(Formats))]
    public void AllocatesAlmostNothingBeyondTheDecodedObjects(WireFormat format)
    {
        var overhead = DecodeAllocations.OverheadPerMember(format.Codec, OrganizationGenerator.Create(100_000));

        output.WriteLine($"{format} decoder: {overhead:F2} bytes per member beyond the decoded objects.");
        Assert.InRange(overhead, -1, 4);
    }

    [Theory]
    [MemberData(nameof(Formats))]
    public void AllocatesAlmostNothingPerMemberIntoASinkThatBuildsNoObjects(WireFormat format)
    {
        var organization = OrganizationGenerator.Create(100_000);

        var (perMember, checksum) = DecodeAllocations.IntoSummaryPerMember(format.Codec, organization);

        output.WriteLine($"{format} decoder into a summary: {perMember:F3} bytes per member.");
        Assert.Equal(OrganizationChecksum.Compute(organization), checksum);
        Assert.InRange(perMember, 0, 0.1);
    }

    // The most bytes a decoder may leave unconsumed between calls on seed-shaped members: JSON holds at most one token
    // (a pipe's reads may end inside a longer run of punctuation and whitespace), protobuf one top-level field (a
    // member), MessagePack and binary one member.
    private static long LargestUnfinishedUnit(WireFormat format, bool throughPipe) => format.Key switch
    {
        "json" => throughPipe ? 64 : 40,
        _ => 100,
    };
}
