namespace WebSerialization.Codecs.Tests.Streaming;

/// <summary>
/// Where a conversion writes while its input arrives: a chunk goes to the output when no flush waits for the output's
/// reader, else to a temporary file, and what the file holds goes out first, in order, once the reader takes bytes again.
/// </summary>
public sealed class SpillingOutputTests : IDisposable
{
    private const int ChunkSize = 100;

    // A reader that has not taken every byte keeps the flush waiting; its reads and the flush's completion run inline.
    private readonly Pipe _pipe = new(new PipeOptions(
        pauseWriterThreshold: 1, resumeWriterThreshold: 1, readerScheduler: PipeScheduler.Inline, writerScheduler: PipeScheduler.Inline, useSynchronizationContext: false));

    private readonly SpillingOutput _output;

    public SpillingOutputTests() => _output = new SpillingOutput(_pipe.Writer, ChunkSize);

    [Fact]
    public async Task EmptiesTheFileWithTheNextChunkOnceTheReaderCatchesUp()
    {
        Push(1);
        Push(2);
        Push(3);
        Assert.Equal(Chunks(1), await TakeAsync());

        // Moved a chunk a flush, the file would give one chunk for each one the input adds and never empty.
        Push(4);

        Assert.Equal(Chunks(2, 3, 4), await TakeAsync());
    }

    [Fact]
    public async Task KeepsTheOrderWhenTheFileHoldsMoreThanOneFlushMoves()
    {
        Push(1);
        for (byte chunk = 2; chunk <= 8; chunk++)
        {
            Push(chunk);
        }

        Assert.Equal(Chunks(1), await TakeAsync());
        Push(9);
        var afterOnePush = await TakeAsync();
        var rest = TakeAsync(toTheEnd: true);
        await _output.CompleteAsync(ReadOnlyMemory<byte>.Empty, CancellationToken.None);
        await _pipe.Writer.CompleteAsync();

        Assert.Equal(Chunks(2, 3, 4, 5), afterOnePush);
        Assert.Equal(Chunks(6, 7, 8, 9), await rest);
    }

    public void Dispose() => _output.Dispose();

    private static byte[] Chunks(params byte[] values) => [.. values.SelectMany(value => Enumerable.Repeat(value, ChunkSize))];

    private void Push(byte value)
    {
        _output.GetSpan(ChunkSize)[..ChunkSize].Fill(value);
        _output.Advance(ChunkSize);
        _output.Push(CancellationToken.None);
    }

    private async Task<byte[]> TakeAsync(bool toTheEnd = false)
    {
        var taken = new List<byte>();
        while (true)
        {
            var result = await _pipe.Reader.ReadAsync();
            taken.AddRange(result.Buffer.ToArray());
            _pipe.Reader.AdvanceTo(result.Buffer.End);
            if (!toTheEnd || result.IsCompleted)
            {
                return [.. taken];
            }
        }
    }
}
