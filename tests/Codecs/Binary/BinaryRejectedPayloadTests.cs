namespace WebSerialization.Codecs.Tests.Binary;

/// <summary>
/// The rejected payloads of docs/binary-format.md, read from the spec: our reader reports each one's error, limit and
/// offset, whether the payload comes all at once or one byte at a time.
/// </summary>
public class BinaryRejectedPayloadTests
{
    public static TheoryData<string, int> PayloadsAndChunkSizes() => Cross(BinarySpecDocument.RejectedPayloads.Keys, [int.MaxValue, 1]);

    [Theory]
    [MemberData(nameof(PayloadsAndChunkSizes))]
    public void RejectsThePayloadWithTheSpecsErrorAtTheSpecsOffset(string name, int chunkSize)
    {
        var expected = BinarySpecDocument.RejectedPayloads[name];

        var failure = DecodeFailure(BinaryCodec.Instance, expected.Bytes, chunkSize, DecodeLimits.Default);

        Assert.Equal((expected.Error, expected.Offset, expected.Limit), (failure.Error, failure.Offset, failure.Limit));
    }

    [Fact]
    public void TheSpecStatesTheDefaultLimits()
    {
        // The rejected payloads that exceed a limit are one past these defaults; the server's configuration starts from them.
        Assert.Equal(
            new Dictionary<string, int>
            {
                [nameof(DecodeLimits.MaxTags)] = DecodeLimits.Default.MaxTags,
                [nameof(DecodeLimits.MaxMembers)] = DecodeLimits.Default.MaxMembers,
                [nameof(DecodeLimits.MaxStringBytes)] = DecodeLimits.Default.MaxStringBytes,
            },
            BinarySpecDocument.DefaultLimits());
    }
}
