namespace WebSerialization.Codecs.Tests.Json;

public class JsonOrganizationDecoderTests
{
    private static readonly JsonCodec Codec = JsonCodec.Instance;

    // Members of the shape the encoder writes are read by a fast path when they lie whole in what the decoder is
    // given, and by the reader when they arrive a byte at a time: every byte of such members, replaced by each byte
    // that could change what the bytes mean, must give both the same organization or the same error at the same offset,
    // and exactly as many must be rejected as when the count was taken.
    [Theory]
    [InlineData(int.MaxValue, int.MaxValue, 6489)]
    [InlineData(12, 4, 10220)]
    public void ReadsMembersWholeInOneSpanAsWhenTheyArriveAByteAtATime(int maxStringBytes, int maxMembers, int rejections)
    {
        var members = new List<Member>
        {
            new() { Id = 1, Name = "TestName1", Description = "TestDescription12345", Address = "TestAddress678", Value = 1268846425, UpdateTime = 1702274075105 },
            new() { Id = -2147483648, Name = null, Description = "", Address = "Stra\u00dfe \ud83d\ude00", Value = -0.0, UpdateTime = long.MinValue },
            new() { Id = 2147483647, Name = "n", Description = null, Address = null, Value = 999_999_999_999_999, UpdateTime = long.MaxValue },
            new() { Id = 0, Name = "x", Description = "y", Address = "z", Value = 1.5, UpdateTime = 0 },
            new() { Id = 7, Name = "seven", Description = "7", Address = "77", Value = -12, UpdateTime = -1 },
            new() { Id = 8, Name = "eight", Description = "8", Address = "88", Value = 1e15, UpdateTime = 8 },
            new() { Id = 9, Name = "nine", Description = "9", Address = "99", Value = -0.0, UpdateTime = 9 },
        };
        var payload = Encode(Codec, new Organization { Id = 3, Tags = ["t"], Members = members });
        var limits = DecodeLimits.Default with { MaxStringBytes = maxStringBytes, MaxMembers = maxMembers };
        var firstMember = payload.AsSpan().IndexOf("{\"id\":1,"u8);
        byte[] replacements = [(byte)'"', (byte)'\\', (byte)' ', (byte)'.', (byte)'e', (byte)'0', (byte)'1', (byte)'-', (byte)',', (byte)'}', (byte)'n', 0x01, 0xC3, 0xFF];

        var (compared, rejected) = (0, 0);
        for (var position = firstMember; position < payload.Length - 2; position++)
        {
            foreach (var replacement in replacements)
            {
                var mutated = (byte[])payload.Clone();
                mutated[position] = replacement;
                var whole = DecodeOutcome.Of(Codec, mutated, int.MaxValue, limits);
                var byteByByte = DecodeOutcome.Of(Codec, mutated, 1, limits);
                Assert.True(whole == byteByByte, $"Byte {position} set to 0x{replacement:X2}: whole {whole}, byte by byte {byteByByte}");
                compared++;
                rejected += whole.Error is null ? 0 : 1;
            }
        }

        Assert.Equal(Convert.ToHexString(payload), DecodeOutcome.Of(Codec, payload, int.MaxValue).Text);
        Assert.True(compared > 500, $"Only {compared} payloads were compared.");
        Assert.Equal(rejections, rejected);
    }

    [Fact]
    public void RefusesAStringThatNeverEndsWithoutBufferingIt()
    {
        var limits = DecodeLimits.Default;
        var payload = new byte[8 * 1024 * 1024];
        payload.AsSpan().Fill((byte)'a');
        "{\"tags\":[\""u8.CopyTo(payload);
        var decoder = Codec.CreateDecoder(limits);

        var before = GC.GetAllocatedBytesForCurrentThread();
        var (error, delivered) = FeedUntilFailure(decoder, payload, chunkSize: 16 * 1024);
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        Assert.Equal(WireFormatError.LimitExceeded, error.Error);
        Assert.Equal(nameof(DecodeLimits.MaxStringBytes), error.Limit);
        Assert.InRange(delivered, 0, (6L * limits.MaxStringBytes) + (32 * 1024));
        Assert.InRange(allocated, 0, 16 * 1024);
    }

    [Fact]
    public void SkipsAnyAmountOfWhitespaceWithoutHoldingIt()
    {
        var payload = new byte[4 * 1024 * 1024];
        payload.AsSpan().Fill((byte)' ');
        payload[0] = (byte)'{';
        payload[^1] = (byte)'}';

        var (decoded, maxPending) = DecodeInChunks(Codec, payload, 64 * 1024);

        Assert.Null(decoded.Members);
        Assert.Equal(0, maxPending);
    }

    [Fact]
    public void AcceptsExactlyTheLimits()
    {
        var limits = new DecodeLimits { MaxMembers = 2, MaxTags = 2, MaxStringBytes = 4, MaxDepth = 3 };

        var decoded = Decode(Codec, "{\"members\":[{\"name\":\"abcd\"},{\"name\":\"é\\u00e9\"}],\"tags\":[\"a\",\"\"]}"u8.ToArray(), limits: limits);

        Assert.Equal(["abcd", "éé"], decoded.Members!.Select(m => m.Name));
        Assert.Equal(["a", string.Empty], decoded.Tags!);
    }

    public static TheoryData<string> InvalidUtf8Rows => [.. InvalidUtf8];

    [Theory]
    [MemberData(nameof(InvalidUtf8Rows))]
    public void RejectsInvalidUtf8Wherever(string invalidHex)
    {
        var invalid = Hex(invalidHex);
        string[] templates =
        [
            "{\"members\":[{\"name\":\"a#b\"}]}",
            "{\"tags\":[\"#\"]}",
            "{\"un#known\":1}",
            "{\"unknown\":[\"#\"]}",
            "{\"members\":[{\"x#\":{\"y\":\"#\"}}]}",
            "{\"members\":[{\"name\":\"a\\n#b\"}]}",
            "{\"tags\":[\"\\u00e9#\"]}",
            "{\"members\":[{\"x\":\"\\t#\"}]}",
        ];

        foreach (var template in templates)
        {
            var payload = template.Split('#').Select(Encoding.UTF8.GetBytes).Aggregate((left, right) => [.. left, .. invalid, .. right]);

            var error = DecodeFailure(Codec, payload);

            Assert.True(error.Error == WireFormatError.Malformed, $"{template}: {error.Error} {error.Message}");
        }
    }

    [Theory]
    [InlineData("\\u00e9\\u00e9", "éé")]
    [InlineData("\\uD83D\\uDE00", "😀")]
    [InlineData("\\u20AC\\u0041", "€A")]
    [InlineData("a\\n\\tb", "a\n\tb")]
    [InlineData("\\\"\\\\\\/\\b", "\"\\/\b")]
    public void AcceptsAnEscapedStringThatUnescapesToMaxStringBytes(string escaped, string value)
    {
        var limits = new DecodeLimits { MaxStringBytes = 4 };

        var decoded = Decode(Codec, Encoding.UTF8.GetBytes("{\"members\":[{\"name\":\"" + escaped + "\"}]}"), chunkSize: 3, limits: limits);

        Assert.Equal(value, decoded.Members![0].Name);
    }

    // A string longer than MaxStringBytes, written plainly or escaped, is refused however it arrives; an escaped one is
    // checked before it is copied, and a lone surrogate among its escapes is Malformed.
    [Theory]
    [InlineData("abcde", WireFormatError.LimitExceeded)]
    [InlineData("\\u0041\\u0042\\u0043\\u0044\\u0045", WireFormatError.LimitExceeded)]
    [InlineData("ééé", WireFormatError.LimitExceeded)]
    [InlineData("😀😀", WireFormatError.LimitExceeded)]
    [InlineData("\\u00e9\\u00e9a", WireFormatError.LimitExceeded)]
    [InlineData("\\uD83D\\uDE00a", WireFormatError.LimitExceeded)]
    [InlineData("\\u0041\\u0042\\u0043\\uD800", WireFormatError.Malformed)]
    [InlineData("\\u0041\\u0042\\u0043\\uDC00", WireFormatError.Malformed)]
    public void ChecksAnEscapedStringLongerThanMaxStringBytesBeforeCopyingIt(string escaped, WireFormatError expected)
    {
        var limits = new DecodeLimits { MaxStringBytes = 4 };

        foreach (var chunkSize in new[] { 1, 7, int.MaxValue })
        {
            var error = DecodeFailure(Codec, Encoding.UTF8.GetBytes("{\"members\":[{\"name\":\"" + escaped + "\"}]}"), chunkSize, limits);

            Assert.Equal(expected, error.Error);
            Assert.Equal(expected == WireFormatError.LimitExceeded ? nameof(DecodeLimits.MaxStringBytes) : null, error.Limit);
        }
    }

    [Theory]
    [InlineData(1)]
    [InlineData(7)]
    [InlineData(int.MaxValue)]
    public void RefusesATokenLongerThanAnyAllowedStringHoweverItArrives(int chunkSize)
    {
        // With MaxStringBytes 4 no token may be longer than 26 bytes (4 bytes escaped as \uXXXX, and the quotes).
        var limits = new DecodeLimits { MaxStringBytes = 4 };
        var payload = Encoding.UTF8.GetBytes("{\"members\":[{\"value\":1." + new string('5', 25) + "}]}");

        var error = DecodeFailure(Codec, payload, chunkSize, limits);

        Assert.Equal(WireFormatError.LimitExceeded, error.Error);
        Assert.Equal(nameof(DecodeLimits.MaxStringBytes), error.Limit);
        Assert.Equal(21, error.Offset);
    }

    [Fact]
    public void AcceptsPropertiesInAnyOrderAndSkipsUnknownOnes()
    {
        const string json = """
            {
              "members": [ { "updateTime": 5, "extra": { "a": [1, {"b": null}], "c": "d" }, "value": "-Infinity", "id": 3, "name": null, "address": "x" } ],
              "x": [[], {}, "s", 1.5e3, true, false, null],
              "tags": [ "t" ],
              "ID": "case matters",
              "id": 9
            }
            """;

        var decoded = Decode(Codec, Encoding.UTF8.GetBytes(json), chunkSize: 1);

        OrganizationAssert.Equal(
            new Organization
            {
                Id = 9,
                Tags = ["t"],
                Members = [new Member { Id = 3, Address = "x", Value = double.NegativeInfinity, UpdateTime = 5 }],
            },
            decoded);
    }

    [Theory]
    [InlineData("{\"id\":1,\"tags\":null,\"members\":null}", 1)]
    [InlineData("{}", 0)]
    [InlineData(" \r\n\t{ } \r\n\t", 0)]
    public void DecodesNullOrMissingTagsAndMembersAsNull(string json, int id)
    {
        var decoded = Decode(Codec, Encoding.UTF8.GetBytes(json));

        Assert.Equal(id, decoded.Id);
        Assert.Null(decoded.Tags);
        Assert.Null(decoded.Members);
    }

    public static TheoryData<string> MalformedJson =>
    [
        // Not an organization, or a value of the wrong type or out of its range.
        "[]", "\"x\"", "1", "null", """{"id":"1"}""", """{"id":1.5}""", """{"id":1.0}""", """{"id":1e2}""",
        """{"id":2147483648}""", """{"id":null}""", """{"id":true}""", """{"tags":{}}""", """{"tags":"a"}""",
        """{"tags":[1]}""", """{"tags":[null]}""", """{"tags":[[]]}""", """{"members":{}}""", """{"members":"x"}""",
        """{"members":[1]}""", """{"members":[null]}""", """{"members":[[]]}""", """{"members":[{"id":"1"}]}""",
        """{"members":[{"name":1}]}""", """{"members":[{"name":{}}]}""", """{"members":[{"name":[]}]}""",
        """{"members":[{"value":"nan"}]}""", """{"members":[{"value":"1.5"}]}""", """{"members":[{"value":null}]}""",
        """{"members":[{"value":1e400}]}""", """{"members":[{"updateTime":9223372036854775808}]}""",
        """{"members":[{"updateTime":1.0}]}""", """{"members":[{"updateTime":"1"}]}""",

        // Not JSON.
        """{"id":1,}""", """{"members":[{},]}""", """{'id':1}""", """{id:1}""", """{"id":01}""", """{"id":+1}""",
        """{"id":1 /* comment */}""", """{"members":[{"value":NaN}]}""", """{"id":1}}""", """{"id":1]""", "\uFEFF{}",

        // A repeated known property.
        """{"id":1,"id":2}""", """{"tags":[],"tags":null}""", """{"members":null,"members":[]}""",
        """{"members":[{"name":"a","name":"b"}]}""", """{"members":[{"value":1,"value":"NaN"}]}""",

        // An escaped lone surrogate.
        """{"members":[{"name":"\uD800"}]}""", """{"members":[{"name":"\uDC00"}]}""",
        """{"members":[{"name":"\uD800x"}]}""", """{"members":[{"name":"\uD83D\u0041"}]}""",
    ];

    [Theory]
    [MemberData(nameof(MalformedJson))]
    public void RejectsMalformedJson(string json) =>
        Assert.Equal(WireFormatError.Malformed, DecodeFailure(Codec, Encoding.UTF8.GetBytes(json)).Error);

    // Whitespace may follow the organization; anything else is Malformed at its first byte.
    public static TheoryData<string, int> BytesAfterTheOrganization => new()
    {
        { "{} x", 3 }, { "{}{}", 2 }, { "{}[]", 2 }, { "{}\u0000", 2 }, { "{} \n x", 5 },
    };

    [Theory]
    [MemberData(nameof(BytesAfterTheOrganization))]
    public void RejectsBytesAfterTheOrganization(string json, int offset)
    {
        var error = DecodeFailure(Codec, Encoding.UTF8.GetBytes(json));

        Assert.Equal((WireFormatError.Malformed, offset), (error.Error, error.Offset));
    }

    [Fact]
    public void ReportsTheOffsetOfAnError() =>
        Assert.Equal(17, DecodeFailure(Codec, "{\"id\":1, \"tags\":[2]}"u8.ToArray(), chunkSize: 5).Offset);

    // Feeds payload chunk by chunk, never final, until the decoder throws; returns the error and the bytes delivered.
    private static (WireFormatException Error, long Delivered) FeedUntilFailure(IOrganizationDecoder decoder, byte[] payload, int chunkSize)
    {
        long consumed = 0;
        for (long delivered = chunkSize; delivered <= payload.Length; delivered += chunkSize)
        {
            var visible = new ReadOnlySequence<byte>(payload, (int)consumed, (int)(delivered - consumed));
            try
            {
                consumed += visible.Slice(0, decoder.Decode(visible, isFinalBlock: false)).Length;
            }
            catch (WireFormatException e)
            {
                return (e, delivered);
            }
        }

        throw new InvalidOperationException("The decoder accepted the whole payload.");
    }
}
