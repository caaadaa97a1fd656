using System.Globalization;

namespace WebSerialization.Codecs.Tests.Streaming;

/// <summary>
/// The converter behind <c>POST /api/organization/convert</c>: its output is the target encoder's bytes for what the
/// source decoder reads, for every pair of formats, whether the output is read while the input arrives or only after,
/// and whether the members are encoded on the decoding thread or, pipelined, on one of their own.
/// </summary>
public class OrganizationStreamConverterTests
{
    // Small, so that a few hundred members cross many chunks, and so the temporary file, long before the end.
    private const int ChunkSize = 1024;

    public static TheoryData<string, string, bool> Pairs
    {
        get
        {
            var data = new TheoryData<string, string, bool>();
            foreach (var from in FormatKeys)
            {
                foreach (var to in FormatKeys)
                {
                    data.Add(from, to, false);
                    data.Add(from, to, true);
                }
            }

            return data;
        }
    }

    [Theory]
    [MemberData(nameof(Pairs))]
    public async Task WritesWhatTheTargetEncoderWritesForTheDecodedOrganization(string from, string to, bool pipelined)
    {
        foreach (var organization in new[] { OrganizationGen.Random(11, 400), OrganizationGen.Extremes(), new Organization { Id = 3 }, new Organization { Tags = [], Members = [] } })
        {
            var input = Encode(CodecOf(from), organization);

            var output = await ConvertAsync(input, from, to, readOutputAsItComes: true, pipelined);

            Assert.Equal(Expected(input, from, to), output);
        }
    }

    [Theory]
    [MemberData(nameof(Pairs))]
    public async Task FinishesWhenTheOutputIsReadOnlyOnceTheWholeInputIsSent(string from, string to, bool pipelined)
    {
        // Enough members for many full batches when pipelined, so that the decoder waits for the writing thread.
        var input = Encode(CodecOf(from), OrganizationGen.Random(12, pipelined ? 20_000 : 2000));

        var output = await ConvertAsync(input, from, to, readOutputAsItComes: false, pipelined);

        Assert.Equal(Expected(input, from, to), output);
    }

    [Theory]
    [EachFormat]
    public async Task TakesTheIdAndTagsAfterTheMembers(string to)
    {
        var input = Encoding.UTF8.GetBytes("""{"members":[{"id":1},{"id":2}],"id":5,"tags":["a"]}""");

        var output = await ConvertAsync(input, "json", to, readOutputAsItComes: true);

        Assert.Equal(Expected(input, "json", to), output);
    }

    [Theory]
    [EachFormat]
    public async Task TakesTheIdAndTagsBetweenTheMembers(string to)
    {
        // Concatenated protobuf messages are one message: the repeated fields add up, the last id wins.
        var members = OrganizationGen.Random(16, 6).Members!;
        byte[] input =
        [
            .. Encode(WireFormat.Protobuf.Codec, new Organization { Id = 1, Members = [.. members.Take(3)] }),
            .. Encode(WireFormat.Protobuf.Codec, new Organization { Id = 5, Tags = ["a"], Members = [] }),
            .. Encode(WireFormat.Protobuf.Codec, new Organization { Tags = ["b"], Members = [.. members.Skip(3)] }),
        ];

        var output = await ConvertAsync(input, "protobuf", to, readOutputAsItComes: true);

        Assert.Equal(Expected(input, "protobuf", to), output);
        Assert.Equal(Encode(CodecOf(to), new Organization { Id = 5, Tags = ["a", "b"], Members = members }), output);
    }

    [Theory]
    [EachFormat("3", "2000", "3 pipelined", "20000 pipelined")]
    public async Task LeavesTheOutputUntouchedWhereverTheInputFails(string to, string members)
    {
        // Three members fail within the first chunk of output, 2,000 after many, 20,000 after many batches.
        var count = int.Parse(members.Split(' ')[0], CultureInfo.InvariantCulture);
        var input = Encode(WireFormat.Binary.Codec, OrganizationGen.Random(13, count));

        var (output, started) = await ConvertFailingAsync(input[..^2], to, pipelined: members.EndsWith("pipelined", StringComparison.Ordinal));

        Assert.False(started);
        Assert.Empty(output);
    }

    [Theory]
    [EachFormat]
    public void TheSummarizersChecksumIsTheOrganizationsChecksum(string formatKey)
    {
        var codec = CodecOf(formatKey);
        foreach (var organization in new[] { OrganizationGen.Random(15, 300), OrganizationGen.Extremes(), new Organization() })
        {
            var payload = Encode(codec, organization);
            var summarizer = new OrganizationSummarizer();

            codec.CreateDecoder(DecodeLimits.Default, summarizer).Decode(BufferSegment.Split(payload, 7), isFinalBlock: true);

            Assert.Equal(OrganizationChecksum.Compute(Decode(codec, payload)), summarizer.Checksum);
        }
    }

    private static byte[] Expected(byte[] input, string from, string to) =>
        Encode(CodecOf(to), Decode(CodecOf(from), input));

    // Feeds the input through a pipe in 4 KB writes; the output is read as it comes, or only once the input is all sent.
    private static async Task<byte[]> ConvertAsync(byte[] input, string from, string to, bool readOutputAsItComes, bool pipelined = false)
    {
        var inputPipe = new Pipe(new PipeOptions(pauseWriterThreshold: 16 * 1024, resumeWriterThreshold: 8 * 1024, useSynchronizationContext: false));
        var outputPipe = new Pipe(new PipeOptions(pauseWriterThreshold: 4 * 1024, resumeWriterThreshold: 2 * 1024, useSynchronizationContext: false));
        var converting = Task.Run(async () =>
        {
            try
            {
                await OrganizationStreamConverter.ConvertAsync(
                    inputPipe.Reader, CodecOf(from), DecodeLimits.Default, CodecOf(to), outputPipe.Writer, _ => { }, CancellationToken.None, ChunkSize, pipelined);
                await outputPipe.Writer.CompleteAsync();
            }
            catch (Exception e)
            {
                // The input is no longer read: completing its reader lets the writing loop below finish instead of
                // waiting on a full pipe, so a failed conversion fails the test instead of hanging it.
                await inputPipe.Reader.CompleteAsync(e);
                await outputPipe.Writer.CompleteAsync(e);
                throw;
            }
        });

        var reading = readOutputAsItComes ? ReadAllAsync(outputPipe.Reader) : null;
        for (var offset = 0; offset < input.Length; offset += 4096)
        {
            await inputPipe.Writer.WriteAsync(input.AsMemory(offset, Math.Min(4096, input.Length - offset)));
        }

        await inputPipe.Writer.CompleteAsync();
        var output = await (reading ?? ReadAllAsync(outputPipe.Reader));
        await converting;
        return output;
    }

    private static async Task<(byte[] Output, bool Started)> ConvertFailingAsync(byte[] input, string to, bool pipelined)
    {
        // A memory stream's writes complete at once, so every flushed byte is there when the conversion fails.
        using var output = new MemoryStream();
        var started = false;
        await Assert.ThrowsAsync<WireFormatException>(() => OrganizationStreamConverter.ConvertAsync(
            PipeReader.Create(new ReadOnlySequence<byte>(input)), WireFormat.Binary.Codec, DecodeLimits.Default, CodecOf(to), PipeWriter.Create(output), s => started = s, CancellationToken.None, ChunkSize, pipelined));
        return (output.ToArray(), started);
    }

    private static async Task<byte[]> ReadAllAsync(PipeReader reader)
    {
        using var all = new MemoryStream();
        await reader.CopyToAsync(all);
        await reader.CompleteAsync();
        return all.ToArray();
    }
}
