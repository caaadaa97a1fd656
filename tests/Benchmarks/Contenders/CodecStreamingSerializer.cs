using System.Buffers;
using WebSerialization.Models.Streaming;

namespace WebSerialization.Benchmarks.Contenders;

/// <summary>
/// Our writer and reader exactly as the API runs them, minus the socket; the reader gets <paramref name="readSize"/>
/// bytes per read (<see cref="Describe"/> says the rest).
/// </summary>
public sealed class CodecStreamingSerializer(IWireFormatCodec codec, string name, ContenderFamily family, int readSize = PreparedPayload.SegmentSize)
    : OrganizationSerializer(name, family, Describe(codec, readSize))
{
    /// <summary>The block size of Kestrel's memory pool, and so of the segments a request body arrives in.</summary>
    public const int KestrelSegmentSize = 4096;

    // One per row, like the server's memory pool: its buffer is not part of what a response allocates.
    private readonly DiscardingPipeWriter _output = new();
    private (PreparedPayload Payload, ReadOnlySequence<byte> Segments)? _split;

    public override bool IsStreaming => true;

    /// <summary>
    /// The most bytes the last <see cref="Serialize"/> left unflushed at once, which a real pipe would hold: bounded
    /// streaming keeps it within <see cref="UnflushedLimit"/>.
    /// </summary>
    public long MaxUnflushedBytes => _output.MaxUnflushedBytes;
    public static int UnflushedLimit => DiscardingPipeWriter.BufferSize;

    public override byte[] SerializeToArray(Organization organization) =>
        CodecHarness.WriteStreamed(codec, organization, OrganizationStreamWriter.DefaultChunkSize);

    public override long Serialize(Organization organization)
    {
        _output.Reset();

        // Every flush of this writer completes synchronously and the token cannot be cancelled, so the writer never
        // yields (OrganizationStreamWriter.YieldEvery) and the task has completed when WriteAsync returns.
        return OrganizationStreamWriter.WriteAsync(_output, codec.CreateEncoder(), organization, organization.Members?.Count ?? 0, CancellationToken.None)
            .GetAwaiter().GetResult();
    }

    public override Organization Deserialize(PreparedPayload payload)
    {
        var decoder = codec.CreateDecoder(DecodeLimits.Default);
        Read(payload, decoder);
        return decoder.GetResult();
    }

    /// <summary>What the API's upload runs: the decoder's views folded into the checksum by <see cref="OrganizationSummarizer"/>.</summary>
    public override string Summarize(PreparedPayload payload)
    {
        var summarizer = new OrganizationSummarizer();
        Read(payload, codec.CreateDecoder(DecodeLimits.Default, summarizer));
        return summarizer.Checksum!;
    }

    private void Read(PreparedPayload payload, IOrganizationDecoder decoder)
    {
        // Other segments than the payload's are views of its array, made once per payload, outside what the next call measures.
        if (readSize != PreparedPayload.SegmentSize && !ReferenceEquals(_split?.Payload, payload))
        {
            _split = (payload, BufferSegment.Split(payload.Bytes, readSize));
        }

        // Every read of this reader completes synchronously, so the task has completed when ReadToEndAsync returns.
        var input = new SegmentedPipeReader(readSize == PreparedPayload.SegmentSize ? payload.Segments : _split!.Value.Segments, readSize);
        OrganizationStreamReader.ReadToEndAsync(input, decoder, CancellationToken.None).GetAwaiter().GetResult();
    }

    private static string Describe(IWireFormatCodec codec, int readSize) => readSize == PreparedPayload.SegmentSize
        ? $"Our {FormatName(codec)} encoder through `OrganizationStreamWriter` (batches of {OrganizationStreamWriter.MembersPerBatch} members, a flush every " +
            $"{OrganizationStreamWriter.DefaultChunkSize / 1024} KB, as the API has it) into a pipe writer that discards what is flushed and reuses its " +
            $"{DiscardingPipeWriter.BufferSize / 1024} KB buffer; our decoder through " +
            "`OrganizationStreamReader` from a pipe reader that delivers the payload 64 KB per read; to summarize, the decoder hands " +
            "each member's fields to `OrganizationSummarizer` as the API's upload does, without building objects."
        : $"Our {FormatName(codec)} decoder through `OrganizationStreamReader` from a pipe reader that delivers the payload in " +
            $"{readSize / 1024} KB segments, one more per read, as Kestrel hands over a request body (to summarize, into " +
            "`OrganizationSummarizer` without objects, as the API's upload does); the encode is the streaming row's.";
}
