using System.Buffers;
using BenchmarkDotNet.Attributes;
using WebSerialization.Models.MessagePack;

namespace WebSerialization.Benchmarks.Readers;

/// <summary>
/// <c>--readers</c>: whether MessagePack-CSharp's <c>MessagePackReader</c> reads members as fast as our decoder, both
/// into a sink that builds nothing (<see cref="Comparison"/>).
/// </summary>
[MemoryDiagnoser]
public class MessagePackReaderBenchmarks
{
    private ReadOnlySequence<byte> _payload;

    /// <summary>Bytes per read: the whole payload at once, or 64 KB as a socket fills a pipe.</summary>
    [Params(int.MaxValue, 64 * 1024)]
    public int ChunkSize { get; set; }

    /// <summary><c>--readers</c>, and its page.</summary>
    public static Comparison Comparison { get; } = new(
        "--readers",
        typeof(MessagePackReaderBenchmarks),
        "messagepack-reader.md",
        "MessagePack: our decoder against MessagePack-CSharp's MessagePackReader",
        "`Readers/MessagePackReaderBenchmarks.cs` says what each row runs",
        string.Create(CultureInfo.InvariantCulture, $"`OrganizationGenerator.Create({OrganizationGenerator.ArticleMemberCount:N0})` as MessagePack, into a sink that builds nothing"),
        [
            "- **OurDecoder**: `MessagePackCodec.CreateDecoder(limits, sink)` fed as a pipe feeds it, with every check and limit.",
            "- **LibraryReader**: MessagePack-CSharp's `MessagePackReader` reading the same members into the same views, texts checked with `Utf8.IsValid` and nothing else; a member cut by the end of a read throws `EndOfStreamException` and is read again with the next (`Readers/LibraryReaderDecoding.cs`).",
            "- **ChunkSize**: bytes added per read: 2147483647 is the whole payload in one read (the library's best case), 65536 a socket's 64 KB reads.",
        ]);

    [GlobalSetup]
    public void SetUp() => _payload = new PreparedPayload(CodecHarness.Encode(MessagePackCodec.Instance, OrganizationGenerator.Create(BenchmarkCommandLine.BenchmarkMemberCount))).Segments;

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

    /// <summary>Builds nothing; adds up ids, text lengths and number bits so that no reader's work is skipped.</summary>
    private sealed class ViewCountingSink : IOrganizationSink
    {
        public long Total { get; private set; }

        public void BeginMembers(OrganizationHeader header) { }

        public void AddMember(in MemberView member) =>
            Total += member.Id + member.Name.Bytes.Length + member.Description.Bytes.Length + member.Address.Bytes.Length
                + BitConverter.DoubleToInt64Bits(member.Value) + member.UpdateTime;

        public void Complete(OrganizationHeader header) { }
    }
}
