using WebSerialization.Benchmarks.Streaming;
using WebSerialization.Models.Codecs;
using WebSerialization.Models.Streaming;
using WebSerialization.Models;
using WebSerialization.Tests.Support;

namespace WebSerialization.Benchmarks.Contenders;

/// <summary>
/// A streaming row whose decode is fed the way Kestrel hands over a request body: 4 KB segments (its memory pool's
/// block size), one more segment per read, so that the benchmark sees every segment boundary the server's decoder
/// sees. Its encode is the streaming row's.
/// </summary>
public sealed class KestrelReadsSerializer(IWireFormatCodec codec, string name, ContenderFamily family) : OrganizationSerializer
{
    /// <summary>The block size of Kestrel's memory pool, and so of the segments a request body arrives in.</summary>
    public const int KestrelSegmentSize = 4096;

    private readonly CodecStreamingSerializer _streaming = new(codec, name, family);
    private byte[]? _segmentedBytes;
    private System.Buffers.ReadOnlySequence<byte> _segments;

    public override string Name => name;

    public override string Description =>
        $"Our {FormatName(codec)} decoder through `OrganizationStreamReader` from a pipe reader that delivers the payload in " +
        $"{KestrelSegmentSize / 1024} KB segments, one more per read, as Kestrel hands over a request body (to summarize, into " +
        "`OrganizationSummarizer` without objects, as the API's upload does); the encode is the streaming row's.";

    public override ContenderFamily Family => family;

    public override bool IsStreaming => true;

    public override byte[] SerializeToArray(Organization organization) => _streaming.SerializeToArray(organization);

    public override long Serialize(Organization organization) => _streaming.Serialize(organization);

    public override Organization Deserialize(PreparedPayload payload)
    {
        var decoder = codec.CreateDecoder(DecodeLimits.Default);
        Read(payload, decoder);
        return decoder.GetResult();
    }

    public override bool SummarizesWithoutObjects => true;

    /// <summary>What the API's upload runs on Kestrel's segments: the decoder's views folded into the checksum.</summary>
    public override string Summarize(PreparedPayload payload)
    {
        var summarizer = new OrganizationSummarizer();
        Read(payload, codec.CreateDecoder(DecodeLimits.Default, summarizer));
        return summarizer.Checksum!;
    }

    private void Read(PreparedPayload payload, IOrganizationDecoder decoder)
    {
        ArgumentNullException.ThrowIfNull(payload);

        // The segments are views of the payload's array, made once per payload, outside what the next call measures.
        if (!ReferenceEquals(_segmentedBytes, payload.Bytes))
        {
            _segments = BufferSegment.Split(payload.Bytes, KestrelSegmentSize);
            _segmentedBytes = payload.Bytes;
        }

        // Every read of this reader completes synchronously, so the task has completed when ReadToEndAsync returns.
        var input = new SegmentedPipeReader(_segments, KestrelSegmentSize);
        OrganizationStreamReader.ReadToEndAsync(input, decoder, CancellationToken.None).GetAwaiter().GetResult();
    }
}
