using System.Buffers;
using System.Runtime.InteropServices;
using BenchmarkDotNet.Attributes;
using WebSerialization.Models;
using WebSerialization.Models.Codecs;
using WebSerialization.Models.MessagePack;
using WebSerialization.Tests.Support;

namespace WebSerialization.Benchmarks.Readers;

/// <summary>
/// Whether MessagePack-CSharp's <c>MessagePackReader</c> reads members as fast as our decoder (over the read core's
/// <c>BufferReader</c>): both hand the seed's members as views to a sink that builds nothing
/// (<see cref="ViewCountingSink"/>), from the same bytes in the same 64 KB segments, delivered whole or one 64 KB read
/// at a time. Run with <c>--readers</c> (<see cref="ReaderComparison"/>).
/// </summary>
[MemoryDiagnoser]
public class MessagePackReaderBenchmarks
{
    private ReadOnlySequence<byte> _payload;

    /// <summary>Bytes per read: the whole payload at once, or 64 KB as a socket fills a pipe.</summary>
    [Params(int.MaxValue, 64 * 1024)]
    public int ChunkSize { get; set; }

    [GlobalSetup]
    public void SetUp()
    {
        var organization = OrganizationGenerator.Create(BenchmarkSettings.MemberCount);
        var output = new ArrayBufferWriter<byte>();
        var encoder = MessagePackCodec.Instance.CreateEncoder();
        encoder.WriteHeader(output, organization, organization.Members!.Count);
        encoder.WriteMembers(output, CollectionsMarshal.AsSpan(organization.Members));
        encoder.WriteFooter(output);
        _payload = BufferSegment.Split(output.WrittenSpan.ToArray(), 64 * 1024);
    }

    /// <summary>Our decoder (<c>MessagePackOrganizationDecoder</c>), fed as <see cref="IOrganizationDecoder"/> is.</summary>
    [Benchmark(Baseline = true)]
    public long OurDecoder()
    {
        var sink = new ViewCountingSink();
        var decoder = MessagePackCodec.Instance.CreateDecoder(DecodeLimits.Default, sink);
        long consumed = 0;
        long delivered = 0;
        while (!decoder.IsComplete)
        {
            delivered = Math.Min(delivered + ChunkSize, _payload.Length);
            var buffer = _payload.Slice(consumed, delivered - consumed);
            consumed += buffer.Slice(0, decoder.Decode(buffer, delivered == _payload.Length)).Length;
        }

        return sink.Total;
    }

    /// <summary>The same members through MessagePack-CSharp's reader (<see cref="LibraryReaderDecoding"/>).</summary>
    [Benchmark]
    public long LibraryReader()
    {
        var sink = new ViewCountingSink();
        LibraryReaderDecoding.Decode(_payload, ChunkSize, sink);
        return sink.Total;
    }
}
