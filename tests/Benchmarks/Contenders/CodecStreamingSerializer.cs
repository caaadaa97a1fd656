using System.IO.Pipelines;
using WebSerialization.Benchmarks.Streaming;
using WebSerialization.Models.Codecs;
using WebSerialization.Models.Streaming;
using WebSerialization.Models;

namespace WebSerialization.Benchmarks.Contenders;

/// <summary>
/// Our writer and reader exactly as the API runs them, minus the socket: <see cref="OrganizationStreamWriter"/> into a
/// <see cref="PipeWriter"/> whose flushes hand the bytes on at once (the buffer is reused, as Kestrel reuses its pooled
/// blocks), and <see cref="OrganizationStreamReader"/> from a <see cref="PipeReader"/> that delivers the payload one
/// 64 KB segment per read, as a socket would.
/// </summary>
public sealed class CodecStreamingSerializer(IWireFormatCodec codec, string name, ContenderFamily family) : OrganizationSerializer
{
    // One per row, like the server's memory pool: its buffer is not part of what a response allocates.
    private readonly DiscardingPipeWriter _output = new();

    public override string Name => name;

    public override string Description =>
        $"Our {FormatName(codec)} encoder through `OrganizationStreamWriter` (batches of 64 members, a flush every " +
        $"{OrganizationStreamWriter.DefaultChunkSize / 1024} KB, as the API has it) into a pipe writer that discards what is flushed and reuses its " +
        $"{DiscardingPipeWriter.BufferSize / 1024} KB buffer; our decoder through " +
        "`OrganizationStreamReader` from a pipe reader that delivers the payload 64 KB per read; to summarize, the decoder hands " +
        "each member's fields to `OrganizationSummarizer` as the API's upload does, without building objects.";

    public override ContenderFamily Family => family;

    public override bool IsStreaming => true;

    /// <summary>
    /// The most bytes the last <see cref="Serialize"/> left unflushed at once, which a real pipe would have held in
    /// memory. Bounded streaming keeps it near the 128 KB chunk whatever the member count.
    /// </summary>
    public long MaxUnflushedBytes => _output.MaxUnflushedBytes;

    /// <summary>The most <see cref="MaxUnflushedBytes"/> may be: a chunk and the batch that crossed it fit in the buffer.</summary>
    public static int UnflushedLimit => DiscardingPipeWriter.BufferSize;

    public override byte[] SerializeToArray(Organization organization)
    {
        ArgumentNullException.ThrowIfNull(organization);
        using var stream = new MemoryStream();
        var pipe = PipeWriter.Create(stream, new StreamPipeWriterOptions(leaveOpen: true));
        OrganizationStreamWriter.WriteAsync(pipe, codec.CreateEncoder(), organization, organization.Members?.Count ?? 0, CancellationToken.None)
            .GetAwaiter().GetResult();
        pipe.Complete();
        return stream.ToArray();
    }

    public override long Serialize(Organization organization)
    {
        ArgumentNullException.ThrowIfNull(organization);
        _output.Reset();

        // Every flush of this writer completes synchronously and the token cannot be cancelled, so the writer never
        // yields (OrganizationStreamWriter.YieldEvery) and the task has completed when WriteAsync returns.
        return OrganizationStreamWriter.WriteAsync(_output, codec.CreateEncoder(), organization, organization.Members?.Count ?? 0, CancellationToken.None)
            .GetAwaiter().GetResult();
    }

    public override bool SummarizesWithoutObjects => true;

    /// <summary>What the API's upload runs: the decoder's views folded into the checksum by <see cref="OrganizationSummarizer"/>.</summary>
    public override string Summarize(PreparedPayload payload)
    {
        ArgumentNullException.ThrowIfNull(payload);
        var input = new SegmentedPipeReader(payload.Segments, PreparedPayload.SegmentSize);
        var summarizer = new OrganizationSummarizer();
        OrganizationStreamReader.ReadToEndAsync(input, codec.CreateDecoder(DecodeLimits.Default, summarizer), CancellationToken.None)
            .GetAwaiter().GetResult();
        return summarizer.Checksum!;
    }

    public override Organization Deserialize(PreparedPayload payload)
    {
        ArgumentNullException.ThrowIfNull(payload);
        var input = new SegmentedPipeReader(payload.Segments, PreparedPayload.SegmentSize);

        // Every read of this reader completes synchronously, so the task has completed when ReadAsync returns.
        return OrganizationStreamReader.ReadAsync(input, codec.CreateDecoder(DecodeLimits.Default), CancellationToken.None)
            .GetAwaiter().GetResult().Organization;
    }
}
