using System.Buffers;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Exporters;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Running;
using WebSerialization.Models.MessagePack;

namespace WebSerialization.Benchmarks.Readers;

/// <summary>
/// <c>--readers</c>: whether MessagePack-CSharp's <c>MessagePackReader</c> reads members as fast as our decoder, both
/// into a sink that builds nothing. A full run writes docs/results/messagepack-reader.md.
/// </summary>
[MemoryDiagnoser]
public class MessagePackReaderBenchmarks
{
    private ReadOnlySequence<byte> _payload;

    /// <summary>Bytes per read: the whole payload at once, or 64 KB as a socket fills a pipe.</summary>
    [Params(int.MaxValue, 64 * 1024)]
    public int ChunkSize { get; set; }

    /// <summary>Runs the comparison with the full run's job (or the dry one) and writes its page after a full run.</summary>
    public static int Run(BenchmarkCommandLine options, TextWriter log)
    {
        var summary = BenchmarkRunner.Run<MessagePackReaderBenchmarks>(options.CreateConfig(seedTable: false));
        if (summary.HasCriticalValidationErrors || summary.Reports.Any(report => !report.Success))
        {
            return 1;
        }

        if (!options.Dry && options.MemberCount == OrganizationGenerator.ArticleMemberCount)
        {
            var logger = new AccumulationLogger();
            var data = string.Create(CultureInfo.InvariantCulture, $"`OrganizationGenerator.Create({BenchmarkCommandLine.BenchmarkMemberCount:N0})` as MessagePack, into a sink that builds nothing");
            string[] lines =
            [
                .. ResultsHeader.Lines(
                    "MessagePack: our decoder against MessagePack-CSharp's MessagePackReader",
                    "`Readers/MessagePackReaderBenchmarks.cs` says what each row runs",
                    "dotnet run -c Release --project tests/Benchmarks -- --readers",
                    data),
                "",
                "- **OurDecoder**: `MessagePackCodec.CreateDecoder(limits, sink)` fed as a pipe feeds it, with every check and limit.",
                "- **LibraryReader**: MessagePack-CSharp's `MessagePackReader` reading the same members into the same views, texts checked with `Utf8.IsValid` and nothing else; a member cut by the end of a read throws `EndOfStreamException` and is read again with the next (`Readers/LibraryReaderDecoding.cs`).",
                "- **ChunkSize**: bytes added per read: 2147483647 is the whole payload in one read (the library's best case), 65536 a socket's 64 KB reads.",
                "",
            ];
            logger.WriteLine(string.Join(Environment.NewLine, lines));
            MarkdownExporter.GitHub.ExportToLog(summary, logger);
            var document = Path.Combine(RepositoryFolder.Root, "docs", "results", "messagepack-reader.md");
            File.WriteAllText(document, logger.GetLog());
            log.WriteLine($"Wrote {document}");
        }

        return 0;
    }

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
