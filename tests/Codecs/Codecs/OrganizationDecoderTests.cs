using System.Diagnostics;
using WebSerialization.Codecs.Tests.Binary;
using WebSerialization.Codecs.Tests.Json;
using WebSerialization.Codecs.Tests.MessagePack;
using WebSerialization.Codecs.Tests.Protobuf;

namespace WebSerialization.Codecs.Tests.Codecs;

/// <summary>
/// What every format's incremental decoder promises: exact round trips whatever the chunking, a bounded amount of
/// undecoded input held between calls, only <see cref="WireFormatException"/> for corrupt input (a fixed count of
/// it rejected), and nothing allocated beyond the decoded objects. Format-specific rules live in each format's tests.
/// </summary>
public class OrganizationDecoderTests(ITestOutputHelper output)
{
    // Pieces that cut a member, a string or a length prefix anywhere, up to the whole payload at once.
    private static readonly int[] ChunkSizes = [1, 2, 3, 5, 7, 13, 31, 4096, int.MaxValue];

    // The formats whose payload says where it ends; a protobuf message has no end marker.
    public static TheoryData<string> FormatsWithAnEnd => [.. FormatKeys.Where(key => key != WireFormat.Protobuf.Key)];

    public static TheoryData<string, int> FormatsAndSeeds => Cross(FormatKeys, Enumerable.Range(1, 30));

    public static TheoryData<string, int> FormatsAndOneByteSeeds => Cross(FormatKeys, Enumerable.Range(101, 16));

    public static TheoryData<string, long> FormatsAndDoubleBits => Cross(FormatKeys, OrganizationGen.DoubleBits);

    public static TheoryData<string, string> FormatsAndInvalidUtf8 => Cross(FormatKeys, InvalidUtf8);

    [Theory]
    [MemberData(nameof(FormatsAndSeeds))]
    public void RoundTripsRandomOrganizationsWhateverTheBatchAndChunkSizes(string formatKey, int seed)
    {
        var format = WireFormat.FromKey(formatKey)!;
        var organization = OrganizationGen.Random(seed);
        var expected = AsDecoded(format, organization);
        var payload = Encode(format.Codec, organization, batchSize: 1 + (seed % 70));

        OrganizationAssert.Equal(expected, Decode(format.Codec, payload));
        OrganizationAssert.Equal(expected, Decode(format.Codec, payload, ChunkSizes[seed % ChunkSizes.Length]));
        OrganizationAssert.Equal(expected, DecodeInChunks(format.Codec, payload, chunkSize: 150, random: new Random(seed), segmentSize: 1 + (seed % 50)).Organization);
        Assert.Equal(payload, Encode(format.Codec, Decode(format.Codec, payload)));
    }

    [Theory]
    [MemberData(nameof(FormatsAndOneByteSeeds))]
    public void DecodesAPayloadGivenOneBytePerSegmentOrPerCallAsAWhole(string formatKey, int seed)
    {
        var format = WireFormat.FromKey(formatKey)!;
        var organization = OrganizationGen.Random(seed);
        var payload = Encode(format.Codec, organization);

        var whole = Decode(format.Codec, payload);

        OrganizationAssert.Equal(AsDecoded(format, organization), whole);
        OrganizationAssert.Equal(whole, Decode(format.Codec, BufferSegment.Split(payload, 1)));
        OrganizationAssert.Equal(whole, Decode(format.Codec, payload, chunkSize: 1));
    }

    [Theory]
    [EachFormat(1, 4096)]
    public void RoundTripsEveryExtremeValue(string formatKey, int chunkSize)
    {
        var codec = CodecOf(formatKey);
        var organization = OrganizationGen.Extremes();

        OrganizationAssert.Equal(organization, Decode(codec, Encode(codec, organization), chunkSize));
    }

    // Every digit count a number may have (1 to 19), at both ends of its range and in between, as the last member's
    // text and after a text whose number is another length: binary writes a text's trailing number apart from it, in
    // each kind that carries one.
    [Theory]
    [EachFormat]
    public void RebuildsTrailingNumbersOfEveryLength(string formatKey)
    {
        var format = WireFormat.FromKey(formatKey)!;
        var numbers = new List<ulong>();
        var power = 1UL;
        for (var digits = 1; digits <= 19; digits++)
        {
            numbers.AddRange([power == 1 ? 0 : power, power + 7, (power * 10) - 1, power + ((power * 9) / 2)]);
            power *= 10;
        }

        var members = numbers.SelectMany((number, index) => new[]
        {
            new Member { Id = 2 * index, Name = $"Item{number}", Description = $"{number}", Address = $"x{index % 3}y{number}" },
            new Member { Id = (2 * index) + 1, Name = $"Item{numbers[^(index + 1)]}", Description = "no digits", Address = null },
        }).ToList();
        var organization = new Organization { Id = 1, Tags = [], Members = members };

        OrganizationAssert.Equal(AsDecoded(format, organization), Decode(format.Codec, Encode(format.Codec, organization, batchSize: 5)));
    }

    // Binary's decoder sizes a value by its trailing number's digit count before it writes the digits: 10^k - 1 and
    // 10^k are the edges of that count ("number must be below 10^19, that is, have at most 19 digits"). The stems
    // cover an ASCII, a non-ASCII and an empty previous value.
    [Theory]
    [EachFormat]
    public void TrailingNumbersOfEveryLengthRoundTripAtTheirPowersOfTen(string formatKey)
    {
        var codec = CodecOf(formatKey);
        var numbers = Enumerable.Range(0, 19).SelectMany(k => new[] { Pow10(k) - 1, Pow10(k) })
            .Append(Pow10(19) - 1)
            .Select(number => number.ToString(System.Globalization.CultureInfo.InvariantCulture))
            .ToArray();
        var organization = new Organization
        {
            Members = [.. numbers.Concat(numbers.Reverse()).Select((number, id) => new Member
            {
                Id = id,
                Name = "TestName" + number,
                Description = "Zürich 😀" + number,
                Address = number,
            })],
        };

        OrganizationAssert.Equal(organization, Decode(codec, Encode(codec, organization)));

        static ulong Pow10(int exponent) => exponent == 0 ? 1 : 10 * Pow10(exponent - 1);
    }

    // Binary writes ids and times as deltas from the member before, which wrap around at the ends of their ranges.
    [Theory]
    [EachFormat]
    public void ExtremeIdsAndTimesRoundTripInAnyOrder(string formatKey)
    {
        var codec = CodecOf(formatKey);
        int[] ids = [int.MinValue, int.MaxValue, 0, -1, int.MaxValue, int.MinValue, int.MinValue, 5, 4];
        long[] times = [long.MinValue, long.MaxValue, 0, long.MaxValue, long.MinValue, -1, 1, long.MinValue, long.MaxValue];
        var organization = new Organization
        {
            Id = int.MinValue,
            Members = [.. ids.Zip(times, (id, time) => new Member { Id = id, UpdateTime = time })],
        };

        OrganizationAssert.Equal(organization, Decode(codec, Encode(codec, organization)));
    }

    // Every special double, in a member of its own and after one with the same value. JSON has no way to write a NaN's
    // payload or sign, so it keeps only that the value is NaN; every other format keeps every bit.
    [Theory]
    [MemberData(nameof(FormatsAndDoubleBits))]
    public void KeepsEveryDoubleToTheBit(string formatKey, long bits)
    {
        var format = WireFormat.FromKey(formatKey)!;
        var value = BitConverter.Int64BitsToDouble(bits);
        var organization = new Organization { Members = [new Member { Value = value }, new Member { Id = 1, Value = value }] };

        var decoded = Decode(format.Codec, Encode(format.Codec, organization));

        Assert.All(decoded.Members!, member => Assert.Equal(
            format == WireFormat.Json && double.IsNaN(value) ? "NaN" : Convert.ToString(bits, 16),
            format == WireFormat.Json && double.IsNaN(member.Value) ? "NaN" : Convert.ToString(BitConverter.DoubleToInt64Bits(member.Value), 16)));
    }

    [Theory]
    [EachFormat(1, 4096)]
    public void HoldsAtMostOneUnfinishedUnitBetweenCalls(string formatKey, int chunkSize)
    {
        var format = WireFormat.FromKey(formatKey)!;
        var organization = OrganizationGenerator.Create(2000);

        var (decoded, maxPending) = DecodeInChunks(format.Codec, Encode(format.Codec, organization), chunkSize);

        OrganizationAssert.Equal(organization, decoded);
        Assert.InRange(maxPending, 0, LargestUnfinishedUnit(format, throughPipe: false));
    }

    // A protobuf message has no end marker: a prefix that ends between its top-level fields is a valid, shorter message
    // with the members up to there. Every other prefix, in every format, is cut short where it ends.
    [Theory]
    [EachFormat("extremes", "random 7 of 10", "random 8 of 10")]
    public void RejectsEveryPrefixAsTruncatedWhereItEndsWhenFinal(string formatKey, string payloadName)
    {
        var format = WireFormat.FromKey(formatKey)!;
        var payload = Encode(format.Codec, OrganizationGen.Named(payloadName));
        var validPrefixes = format == WireFormat.Protobuf ? ProtobufOrganizationDecoderTests.TopLevelFieldEnds(payload) : [];

        for (var length = 0; length < payload.Length; length++)
        {
            if (validPrefixes.TryGetValue(length, out var members))
            {
                Assert.Equal(members, Decode(format.Codec, payload[..length]).Members?.Count ?? 0);
                continue;
            }

            var error = DecodeFailure(format.Codec, new ReadOnlySequence<byte>(payload, 0, length));
            Assert.True(error.Error == WireFormatError.Truncated, $"Prefix of {length} bytes: {error.Error} {error.Message}");
            Assert.Equal(length, error.Offset);
        }
    }

    // The organization with every extreme and two random ones: none is complete before its last byte is given.
    [Theory]
    [EachFormat("extremes", "random 7 of 10", "random 8 of 10")]
    public void WaitsForMoreAtEveryPrefixUntilTheLastCallSaysItIsFinal(string formatKey, string payloadName)
    {
        var codec = CodecOf(formatKey);
        var payload = Encode(codec, OrganizationGen.Named(payloadName));

        for (var length = 0; length < payload.Length; length++)
        {
            var decoder = codec.CreateDecoder(DecodeLimits.Default);
            var buffer = new ReadOnlySequence<byte>(payload, 0, length);

            var rest = buffer.Slice(decoder.Decode(buffer, isFinalBlock: false));

            Assert.False(decoder.IsComplete, $"Complete after a prefix of {length} bytes.");
            Assert.Throws<InvalidOperationException>(decoder.GetResult);
            decoder.Decode(new ReadOnlySequence<byte>([.. rest.ToArray(), .. payload.AsSpan(length)]), isFinalBlock: true);
            OrganizationAssert.Equal(Decode(codec, payload), decoder.GetResult());
        }
    }

    [Theory]
    [MemberData(nameof(FormatsWithAnEnd))]
    public void RejectsAByteAfterTheEndWhetherItComesWithThePayloadOrAfterIt(string formatKey)
    {
        var codec = CodecOf(formatKey);
        var payload = Encode(codec, OrganizationGen.Extremes());

        foreach (var isFinalBlock in new[] { true, false })
        {
            var error = DecodeFailure(codec, new ReadOnlySequence<byte>([.. payload, 0]), isFinalBlock);
            Assert.Equal((WireFormatError.Malformed, payload.Length), (error.Error, error.Offset));
        }

        var decoder = codec.CreateDecoder(DecodeLimits.Default);
        var rest = new ReadOnlySequence<byte>(payload).Slice(decoder.Decode(new ReadOnlySequence<byte>(payload), isFinalBlock: false));
        var late = Assert.Throws<WireFormatException>(() => decoder.Decode(new ReadOnlySequence<byte>([.. rest.ToArray(), 0]), isFinalBlock: true));
        Assert.Equal((WireFormatError.Malformed, payload.Length), (late.Error, late.Offset));
    }

    // Bytes that are no organization in the format are Malformed from their first bytes on: an array in JSON, nil in
    // MessagePack, field number 0 in protobuf; a JSON brace, a MessagePack array or magic one letter off where the
    // binary magic must be. Further in, a tag that is a number in JSON, a nil member in MessagePack and field number 0
    // after the id in protobuf are Malformed too. Every later call, with more bytes or none, final or not, fails with
    // that first error at its offset: the decoder does not pick up where the error left it.
    [Theory]
    [InlineData("json", "5B 5D")]
    [InlineData("json", "7B 22 74 61 67 73 22 3A 5B 31 5D 7D")]
    [InlineData("msgpack", "C0")]
    [InlineData("msgpack", "93 01 C0 91 C0")]
    [InlineData("protobuf", "00")]
    [InlineData("protobuf", "08 01 00")]
    [InlineData("binary", "7B")]
    [InlineData("binary", "57 53 42 47")]
    [InlineData("binary", "93 01")]
    public void KeepsFailingAfterItsFirstError(string formatKey, string notAnOrganization)
    {
        var codec = CodecOf(formatKey);
        var decoder = codec.CreateDecoder(DecodeLimits.Default);
        var first = Assert.Throws<WireFormatException>(() => decoder.Decode(new ReadOnlySequence<byte>(Hex(notAnOrganization)), isFinalBlock: false));
        var valid = Encode(codec, new Organization());

        Assert.Equal(WireFormatError.Malformed, first.Error);
        foreach (var (more, isFinalBlock) in new[] { (valid, false), (valid, true), ([], true) })
        {
            var again = Assert.Throws<WireFormatException>(() => decoder.Decode(new ReadOnlySequence<byte>(more), isFinalBlock));
            Assert.Equal((first.Error, first.Limit, first.Offset), (again.Error, again.Limit, again.Offset));
        }

        Assert.False(decoder.IsComplete);
        Assert.Throws<InvalidOperationException>(decoder.GetResult);
    }

    // Every malformed or cut-short payload of each format's own tests fails with the same error, limit and offset in
    // pieces of any size as whole: a unit is read over exactly its own bytes, wherever the pieces end.
    [Theory]
    [EachFormat(1, 2, 5)]
    public void ReportsAFailureAlikeWhateverTheChunkSize(string formatKey, int chunkSize)
    {
        var codec = CodecOf(formatKey);
        foreach (var payload in RejectedPayloads(WireFormat.FromKey(formatKey)!))
        {
            var whole = DecodeFailure(codec, payload);
            var chunked = DecodeFailure(codec, payload, chunkSize);
            Assert.True(
                (chunked.Error, chunked.Limit, chunked.Offset) == (whole.Error, whole.Limit, whole.Offset),
                $"{Convert.ToHexString(payload)} in {chunkSize}-byte chunks: {chunked.Error} at {chunked.Offset}, whole {whole.Error} at {whole.Offset}");
        }
    }

    // A fixed seed and organization: each corrupt payload (see Corrupt) gives the same organization or the same error
    // at the same offset whole, in 13-byte chunks and byte by byte, never another exception; and exactly as many are
    // rejected as when the count was taken, some as Malformed, some as Truncated. Many corruptions land in texts and
    // numbers, which stay valid, so a decoder that rejected less would show here.
    [Theory]
    [InlineData("json", 929)]
    [InlineData("msgpack", 835)]
    [InlineData("protobuf", 834)]
    [InlineData("binary", 800)]
    public void RejectsAFixedCountOfSeededCorruptionsAlikeWhateverTheChunking(string formatKey, int rejections)
    {
        const int Iterations = 1000;
        var codec = CodecOf(formatKey);
        var payload = Encode(codec, OrganizationGen.Extremes());
        var random = new Random(8);
        var errors = new Dictionary<WireFormatError, int>();
        for (var iteration = 0; iteration < Iterations; iteration++)
        {
            var corrupt = Corrupt(random, payload);

            var whole = DecodeOutcome.Of(codec, corrupt, int.MaxValue);
            Assert.Equal(whole, DecodeOutcome.Of(codec, corrupt, 13));
            Assert.Equal(whole, DecodeOutcome.Of(codec, corrupt, 1));
            if (whole.Error is { } error)
            {
                errors[error] = errors.GetValueOrDefault(error) + 1;
            }
        }

        output.WriteLine($"{formatKey}: {errors.Values.Sum()} of {Iterations} corrupt payloads rejected: {string.Join(", ", errors)}");
        Assert.Equal(rejections, errors.Values.Sum());
        Assert.True(errors.ContainsKey(WireFormatError.Malformed) && errors.ContainsKey(WireFormatError.Truncated), string.Join(", ", errors));
    }

    // Random bytes, half of them after a random prefix of a valid payload so that they get past the first bytes: a fixed
    // count of them is rejected, each the same whole or a byte at a time, and nothing but WireFormatException is thrown.
    [Theory]
    [InlineData("json", 5000)]
    [InlineData("msgpack", 4998)]
    [InlineData("protobuf", 4895)]
    [InlineData("binary", 4998)]
    public void RejectsAFixedCountOfSeededRandomBytes(string formatKey, int rejections)
    {
        const int Iterations = 5000;
        var codec = CodecOf(formatKey);
        var valid = Encode(codec, OrganizationGen.Extremes());
        var random = new Random(42);
        var rejected = 0;
        for (var iteration = 0; iteration < Iterations; iteration++)
        {
            var bytes = new byte[random.Next(0, 40)];
            random.NextBytes(bytes);
            if (random.Next(2) == 0)
            {
                bytes = [.. valid.AsSpan(0, random.Next(valid.Length)), .. bytes];
            }

            var whole = DecodeOutcome.Of(codec, bytes, int.MaxValue);
            Assert.Equal(whole, DecodeOutcome.Of(codec, bytes, 1));
            rejected += whole.Error is null ? 0 : 1;
        }

        output.WriteLine($"{formatKey}: {rejected} of {Iterations} random payloads rejected");
        Assert.Equal(rejections, rejected);
    }

    // Two members, two tags and one text of 5 UTF-8 bytes (the others have 1): limits set exactly to that let it
    // through, and one less on the limit under test refuses it, naming the limit, whole or a byte at a time.
    [Theory]
    [EachFormat("MaxMembers", "MaxTags", "MaxStringBytes in a tag", "MaxStringBytes in a name", "MaxStringBytes in a description", "MaxStringBytes in an address")]
    public void EnforcesEachLimitFromOnePastItsValue(string formatKey, string limit)
    {
        var codec = CodecOf(formatKey);
        const string Longest = "ab\u20ac";
        var member = new Member { Id = 1, Name = limit.EndsWith("name", StringComparison.Ordinal) ? Longest : "n", Description = limit.EndsWith("description", StringComparison.Ordinal) ? Longest : "d", Address = limit.EndsWith("address", StringComparison.Ordinal) ? Longest : "a" };
        var organization = new Organization { Id = 1, Tags = ["a", limit.EndsWith("tag", StringComparison.Ordinal) ? Longest : "b"], Members = [member, new Member { Id = 2 }] };
        var exactly = DecodeLimits.Default with { MaxMembers = 2, MaxTags = 2, MaxStringBytes = 5 };
        var name = limit.Split(' ')[0];
        var over = name switch
        {
            "MaxMembers" => exactly with { MaxMembers = 1 },
            "MaxTags" => exactly with { MaxTags = 1 },
            _ => exactly with { MaxStringBytes = 4 },
        };
        var payload = Encode(codec, organization);

        OrganizationAssert.Equal(organization, Decode(codec, payload, limits: exactly));
        foreach (var chunkSize in new[] { 1, int.MaxValue })
        {
            var error = DecodeFailure(codec, payload, chunkSize, over);
            Assert.Equal((WireFormatError.LimitExceeded, name), (error.Error, error.Limit));
        }
    }

    // A declared count or length reserves nothing for bytes that are not there (measured after a first run has built
    // the code paths' statics): past its limit it is refused from the declaration alone, while the decoder still waits
    // for more bytes; within it, the payload is cut short when the last call comes. MessagePack's counts go up to
    // 2^32 - 1, past any limit, so those rows are read with none.
    [Theory]
    [InlineData("msgpack", "93 01 c0 dd ff ff ff ff", "MaxMembers", true)] // array 32 of 2^32-1 members
    [InlineData("msgpack", "93 01 dd ff ff ff ff", "MaxTags", true)] // array 32 of 2^32-1 tags
    [InlineData("msgpack", "93 01 91 db ff ff ff ff", "MaxStringBytes", true)] // str 32 of 4 GB
    [InlineData("msgpack", "93 01 c0 91 96 00 db 00 01 00 01", "MaxStringBytes", true)] // 65537 bytes
    [InlineData("msgpack", "93 01 c0 dd 7f ff ff ff 96", null, false)] // 2^31-1 members
    [InlineData("msgpack", "93 01 c0 dd ff ff ff ff 96", "MaxMembers", false)] // 2^32-1 members: more than a List holds
    [InlineData("msgpack", "93 01 dd 7f ff ff ff a0", null, false)] // 2^31-1 tags
    [InlineData("msgpack", "93 01 91 db 7f ff ff ff 61", null, false)] // a 2 GB string
    [InlineData("msgpack", "93 01 c0 91 96 00 db 7f ff ff ff 61", null, false)]
    [InlineData("protobuf", "12 FF FF FF FF 07", "MaxStringBytes", true)] // a 2 GB tag
    [InlineData("protobuf", "12 81 80 04", "MaxStringBytes", true)] // a 64 KB + 1 tag
    [InlineData("protobuf", "1A FF FF FF FF 0F", "MaxStringBytes", true)] // a 4 GB member
    [InlineData("protobuf", "4A 80 80 80 80 80 80 80 80 80 01", "MaxStringBytes", true)] // a 2^63 byte unknown field
    [InlineData("binary", "57 53 42 46 01 00 00 81 80 80 80 08", "MaxMembers", true)] // 2^31 members
    [InlineData("binary", "57 53 42 46 01 00 00 FF FF FF FF 0F", "MaxMembers", true)] // 2^32 - 2 members
    [InlineData("binary", "57 53 42 46 01 00 81 80 80 80 08", "MaxTags", true)] // 2^31 tags
    [InlineData("binary", "57 53 42 46 01 00 02 81 80 80 80 04", "MaxStringBytes", true)] // a 1 GiB tag
    [InlineData("binary", "57 53 42 46 01 00 00 02 82 00 00 80 80 80 80 08", "MaxStringBytes", true)] // a 1 GiB text
    [InlineData("binary", "57 53 42 46 01 00 00 02 82 00 00 81 80 80 80 08", "MaxStringBytes", true)] // a 1 GiB text before a number
    [InlineData("binary", "57 53 42 46 01 00 00 81 89 7A", null, true)] // 2,000,000 members, the most the default limits allow, and none of them
    [InlineData("binary", "57 53 42 46 01 00 91 4E", null, true)] // 10,000 tags and none of them
    [InlineData("binary", "57 53 42 46 01 00 02 81 80 04 41", null, true)] // a tag of 65,536 bytes with 1 byte there
    [InlineData("binary", "57 53 42 46 01 00 00 02 82 00 00 80 80 08 41", null, true)] // a text of 65,536 bytes with 1 byte there
    public void ReservesNothingForADeclaredCountOrLengthBeyondTheBytes(string formatKey, string hex, string? limit, bool defaultLimits)
    {
        var codec = CodecOf(formatKey);
        var payload = new ReadOnlySequence<byte>(Hex(hex));
        var limits = defaultLimits ? DecodeLimits.Default : new DecodeLimits { MaxMembers = int.MaxValue, MaxTags = int.MaxValue, MaxStringBytes = int.MaxValue, MaxDepth = int.MaxValue };
        var expected = limit is null ? WireFormatError.Truncated : WireFormatError.LimitExceeded;
        RunOnce();
        var before = GC.GetAllocatedBytesForCurrentThread();

        RunOnce();

        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        output.WriteLine($"{allocated} bytes allocated");
        Assert.InRange(allocated, 0, 8 * 1024);

        void RunOnce()
        {
            var decoder = codec.CreateDecoder(limits);
            WireFormatException arriving;
            if (limit is not null)
            {
                arriving = Assert.Throws<WireFormatException>(() => decoder.Decode(payload, isFinalBlock: false));
            }
            else
            {
                var rest = payload.Slice(decoder.Decode(payload, isFinalBlock: false));
                arriving = Assert.Throws<WireFormatException>(() => decoder.Decode(rest, isFinalBlock: true));
            }

            var whole = DecodeFailure(codec, payload, isFinalBlock: true, limits);
            Assert.Equal((expected, limit), (arriving.Error, arriving.Limit));
            Assert.Equal((expected, limit), (whole.Error, whole.Limit));
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
        var invalid = Hex(invalidHex);
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
                var payload = Encode(format.Codec, organization);
                var at = payload.AsSpan().IndexOf("~^~^"u8);
                Assert.True(at >= 0 && payload.AsSpan(at + 1).IndexOf("~^~^"u8) < 0, $"{format.Key}: the marker is not written once, verbatim");
                replacement.CopyTo(payload, at);
                foreach (var chunkSize in new[] { 1, int.MaxValue })
                {
                    var error = DecodeFailure(format.Codec, payload, chunkSize);
                    Assert.True(error.Error == WireFormatError.Malformed, $"{format.Key} {text}, chunks of {chunkSize}: {error.Error} {error.Message}");
                }
            }
        }
    }

    [Theory]
    [EachFormat("\u00e9", "\u00e9\u00e9\u00e9\u00e9", "abcdefg\u00e9", "abcdefghijklmnopqrstuvwxyz\u20ac\u20ac", "\ud83d\ude00 abcdefghijklmnopqrstuvwxyz 0123456789")]
    public void AcceptsWellFormedTextsOfEveryLength(string formatKey, string text)
    {
        var codec = CodecOf(formatKey);
        var organization = new Organization { Tags = [text], Members = [new Member { Name = text, Description = text + text, Address = text[^1..] }] };

        OrganizationAssert.Equal(organization, Decode(codec, Encode(codec, organization), chunkSize: 5));
    }

    [Theory]
    [EachFormat]
    public void AcceptsARealReplacementCharacterSpreadOverSegments(string formatKey)
    {
        var codec = CodecOf(formatKey);
        var organization = new Organization { Tags = ["\uFFFD"], Members = [new Member { Name = "a\uFFFDb", Address = new string('\uFFFD', 3000) }] };

        OrganizationAssert.Equal(organization, Decode(codec, Encode(codec, organization), chunkSize: 3));
    }

    [Theory]
    [EachFormat]
    public void DecodesAStringOfExactlyMaxStringBytes(string formatKey)
    {
        var codec = CodecOf(formatKey);
        var name = new string('x', DecodeLimits.Default.MaxStringBytes);

        Assert.Equal(name, Decode(codec, Encode(codec, new Organization { Members = [new Member { Name = name }] })).Members![0].Name);
    }

    // Read again from its start on every call, a text would take quadratic time in one-byte segments.
    [Theory]
    [EachFormat]
    public void ReadsALongStringTrickledInAByteAtATimeInLinearTime(string formatKey)
    {
        var codec = CodecOf(formatKey);
        var name = new string('a', 60_000);
        var payload = Encode(codec, new Organization { Members = [new Member { Name = name }] });
        var clock = Stopwatch.StartNew();

        var decoded = Decode(codec, payload, chunkSize: 1);

        Assert.Equal(name, decoded.Members![0].Name);
        Assert.InRange(clock.Elapsed, TimeSpan.Zero, TimeSpan.FromSeconds(3));
    }

    // Null and empty tags, member lists and texts stay apart, except that protobuf (proto3) writes nothing for an empty
    // list and reads nothing as none (see AsDecoded). JSON has no null tag and protobuf writes one empty, so they get
    // an empty one where the others get null.
    [Theory]
    [EachFormat]
    public void KeepsNullAndEmptyApartForTagsMembersAndTexts(string formatKey)
    {
        var format = WireFormat.FromKey(formatKey)!;
        var nullTag = format == WireFormat.Json || format == WireFormat.Protobuf ? string.Empty : null!;
        Organization[] organizations =
        [
            new(),
            new() { Tags = [], Members = [] },
            new() { Tags = [], Members = [new() { Name = string.Empty, Description = null, Address = string.Empty }, new()] },
            new() { Tags = [nullTag, string.Empty] },
            new() { Members = [new() { Name = string.Empty, Description = null, Address = string.Empty }, new()] },
        ];

        foreach (var organization in organizations)
        {
            OrganizationAssert.Equal(AsDecoded(format, organization), Decode(format.Codec, Encode(format.Codec, organization)));
        }
    }

    // Unknown values nested in the organization, arrays in JSON and groups in protobuf (the other formats have no
    // unknown values): the organization is one level, so with MaxDepth 8 it may hold 7 nested levels.
    [Theory]
    [InlineData("json", 7, false)]
    [InlineData("json", 8, true)]
    [InlineData("json", 100_000, true)]
    [InlineData("protobuf", 7, false)]
    [InlineData("protobuf", 8, true)]
    [InlineData("protobuf", 10_000, true)]
    public void RefusesUnknownValuesNestedDeeperThanMaxDepth(string formatKey, int levels, bool refused)
    {
        var codec = CodecOf(formatKey);
        var payload = formatKey == WireFormat.Json.Key
            ? Encoding.UTF8.GetBytes("{\"unknown\":" + new string('[', levels) + new string(']', levels) + "}")
            : ProtobufOrganizationDecoderTests.NestedGroups(levels);

        if (refused)
        {
            var error = DecodeFailure(codec, payload);
            Assert.Equal((WireFormatError.LimitExceeded, nameof(DecodeLimits.MaxDepth)), (error.Error, error.Limit));
        }
        else
        {
            Assert.Null(Decode(codec, payload).Members);
        }
    }

    [Theory]
    [EachFormat]
    public async Task RoundTripsTheMillionMemberSeedOrganizationThroughAPipe(string formatKey)
    {
        var format = WireFormat.FromKey(formatKey)!;
        var organization = OrganizationGenerator.Create();

        var (decoded, _, maxPending) = await RoundTripThroughPipeAsync(format.Codec, organization);

        OrganizationAssert.Equal(organization, decoded);
        Assert.Equal(OrganizationChecksum.Compute(organization), OrganizationChecksum.Compute(decoded));
        Assert.InRange(maxPending, 0, LargestUnfinishedUnit(format, throughPipe: true));
    }

    [Theory]
    [EachFormat]
    public void AllocatesAlmostNothingBeyondTheDecodedObjects(string formatKey)
    {
        var overhead = Allocations.DecodingOverheadPerMember(CodecOf(formatKey), OrganizationGenerator.Create(100_000));

        output.WriteLine($"{formatKey} decoder: {overhead:F2} bytes per member beyond the decoded objects.");
        Assert.InRange(overhead, -1, 4);
    }

    [Theory]
    [EachFormat]
    public void AllocatesAlmostNothingPerMemberIntoASinkThatBuildsNoObjects(string formatKey)
    {
        var organization = OrganizationGenerator.Create(100_000);

        var (perMember, checksum) = Allocations.DecodingIntoASummaryPerMember(CodecOf(formatKey), organization);

        output.WriteLine($"{formatKey} decoder into a summary: {perMember:F3} bytes per member.");
        Assert.Equal(OrganizationChecksum.Compute(organization), checksum);
        Assert.InRange(perMember, 0, 0.1);
    }

    // The payloads each format's own tests reject.
    private static IEnumerable<byte[]> RejectedPayloads(WireFormat format)
    {
        if (format == WireFormat.Json)
        {
            return JsonOrganizationDecoderTests.MalformedJson.Concat(JsonOrganizationDecoderTests.BytesAfterTheOrganization)
                .Select(row => Encoding.UTF8.GetBytes((string)row[0]));
        }

        if (format == WireFormat.Protobuf)
        {
            return ProtobufOrganizationDecoderTests.MalformedPayloads.Select(row => (byte[])row[1])
                .Concat(ProtobufOrganizationDecoderTests.FieldsCutShort.Select<object[], byte[]>(row => Hex((string)row[0])));
        }

        IEnumerable<object[]> hexRows = format == WireFormat.MessagePack ? MessagePackOrganizationDecoderTests.ValuesOfTheWrongFormat : BinaryOrganizationDecoderTests.WhatTheSpecForbids;
        return hexRows.Select(row => Hex((string)row[0]));
    }

    // One to three corruptions: a bit flipped, a byte replaced, inserted or removed, the rest cut off, or a byte set to
    // 0xFF or 0x80 (never the start of a UTF-8 character).
    private static byte[] Corrupt(Random random, byte[] payload)
    {
        var bytes = payload;
        for (var mutations = random.Next(1, 4); mutations > 0 && bytes.Length > 0; mutations--)
        {
            var at = random.Next(bytes.Length);
            bytes = random.Next(6) switch
            {
                0 => [.. bytes[..at], (byte)(bytes[at] ^ (1 << random.Next(8))), .. bytes[(at + 1)..]],
                1 => [.. bytes[..at], (byte)random.Next(256), .. bytes[(at + 1)..]],
                2 => [.. bytes[..at], (byte)random.Next(256), .. bytes[at..]],
                3 => [.. bytes[..at], .. bytes[(at + 1)..]],
                4 => bytes[..at],
                _ => [.. bytes[..at], random.Next(2) == 0 ? (byte)0xFF : (byte)0x80, .. bytes[(at + 1)..]],
            };
        }

        return bytes;
    }

    // The most bytes a decoder may leave unconsumed between calls on seed-shaped members: JSON holds at most one token
    // (a pipe's reads may end inside a longer run of punctuation and whitespace), protobuf one top-level field (a
    // member), MessagePack and binary one member.
    private static long LargestUnfinishedUnit(WireFormat format, bool throughPipe) =>
        format != WireFormat.Json ? 100 : throughPipe ? 64 : 40;
}
