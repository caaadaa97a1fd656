namespace WebSerialization.Codecs.Tests.Streaming;

/// <summary>
/// Where a conversion writes while its input arrives: every chunk goes to a temporary file, however freely the output
/// would take bytes, and the output gets what comes first, then the file, then the buffer, only once it is completed.
/// </summary>
public sealed class SpillingOutputTests : IDisposable
{
    private const int ChunkSize = 100;

    // A reader that takes every byte at once: the output would never make a writer wait.
    private readonly Pipe _pipe = new(new PipeOptions(readerScheduler: PipeScheduler.Inline, writerScheduler: PipeScheduler.Inline, useSynchronizationContext: false));

    private readonly SpillingOutput _output;

    public SpillingOutputTests() => _output = new SpillingOutput(_pipe.Writer, ChunkSize);

    [Fact]
    public void SendsNothingBeforeItIsCompletedThoughTheOutputIsFree()
    {
        Push(1);
        Push(2);

        Assert.False(_pipe.Reader.TryRead(out _));
        Assert.False(_output.HasStarted);
    }

    [Fact]
    public async Task WritesWhatComesFirstThenTheFileThenTheBuffer()
    {
        for (byte chunk = 1; chunk <= 5; chunk++)
        {
            Push(chunk);
        }

        _output.GetSpan(3)[..3].Fill(9);
        _output.Advance(3);
        await _output.CompleteAsync(new byte[] { 7, 7 }, CancellationToken.None);
        await _pipe.Writer.CompleteAsync();

        Assert.True(_output.HasStarted);
        Assert.Equal([7, 7, .. Chunks(1, 2, 3, 4, 5), 9, 9, 9], await ReadToEndAsync());
    }

    public void Dispose() => _output.Dispose();

    private static byte[] Chunks(params byte[] values) => [.. values.SelectMany(value => Enumerable.Repeat(value, ChunkSize))];

    private void Push(byte value)
    {
        _output.GetSpan(ChunkSize)[..ChunkSize].Fill(value);
        _output.Advance(ChunkSize);
        _output.Push();
    }

    private async Task<byte[]> ReadToEndAsync()
    {
        var taken = new List<byte>();
        while (true)
        {
            var result = await _pipe.Reader.ReadAsync();
            taken.AddRange(result.Buffer.ToArray());
            _pipe.Reader.AdvanceTo(result.Buffer.End);
            if (result.IsCompleted)
            {
                return [.. taken];
            }
        }
    }
}
