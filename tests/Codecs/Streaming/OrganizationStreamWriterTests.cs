namespace WebSerialization.Codecs.Tests.Streaming;

public class OrganizationStreamWriterTests
{
    private static readonly Organization Seed = OrganizationGenerator.Create(20_000);

    [Theory]
    [EachFormat]
    public async Task FlushesInChunksSoNoResponseIsHeldWhole(string formatKey)
    {
        // Larger than one batch of these members (about 40 KB of JSON), as the API's default chunk is; a smaller chunk
        // flushes once a batch, which the bound below allows but the count above does not.
        const int chunkSize = 64 * 1024;
        var output = new RecordingPipeWriter();

        var written = await OrganizationStreamWriter.WriteAsync(output, CodecOf(formatKey).CreateEncoder(), Seed, Seed.Members!.Count, CancellationToken.None, chunkSize);

        Assert.Equal(output.TotalBytes, written);
        Assert.True(output.Flushes.Count > written / (4 * chunkSize), $"Only {output.Flushes.Count} flushes for {written} bytes.");

        // A flush carries at most one chunk plus the batch that crossed the threshold (members of a few hundred bytes).
        Assert.All(output.Flushes, bytes => Assert.InRange(bytes, 0, chunkSize + (OrganizationStreamWriter.MembersPerBatch * 512)));
    }

    [Theory]
    [EachFormat]
    public async Task StopsWhenTheReaderHasGone(string formatKey)
    {
        var output = new RecordingPipeWriter { CompleteAfterFlushes = 3 };

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() =>
            OrganizationStreamWriter.WriteAsync(output, CodecOf(formatKey).CreateEncoder(), Seed, Seed.Members!.Count, CancellationToken.None, 4096));

        Assert.Equal(3, output.Flushes.Count);
    }

    public static TheoryData<string, string> FormatsAndOrganizations => Cross(FormatKeys, ByteExactOrganizations);

    // A pipe's spans are small here (256 bytes), so that strings, length prefixes and members are cut at every place.
    [Theory]
    [MemberData(nameof(FormatsAndOrganizations))]
    public async Task WritesTheEncodersBytesIntoAPipesSmallSpansInChunks(string formatKey, string name)
    {
        var codec = CodecOf(formatKey);
        var organization = OrganizationGen.Named(name);
        var pipe = new Pipe(new PipeOptions(minimumSegmentSize: 256, pauseWriterThreshold: 0));

        var written = await OrganizationStreamWriter.WriteAsync(pipe.Writer, codec.CreateEncoder(), organization, organization.Members?.Count ?? 0, CancellationToken.None, chunkSize: 1024);
        await pipe.Writer.CompleteAsync();
        var result = await pipe.Reader.ReadAtLeastAsync(int.MaxValue);

        Assert.Equal(written, result.Buffer.Length);
        Assert.Equal(Convert.ToHexString(Encode(codec, organization)), Convert.ToHexString(result.Buffer.ToArray()));
    }

    [Fact]
    public void GivesQueuedWorkATurnWhileFlushesDoNotWait()
    {
        // Behind response compression a client that has gone leaves every flush completing at once, and the server
        // raises the request's cancellation from a queued work item. On a single-threaded context (a thread pool with
        // no thread to spare) that item runs only when the writer gives up its thread: it must, after YieldEvery bytes
        // flushed without a wait, not only at the end of the organization.
        var organization = OrganizationGenerator.Create(40_000);
        using var cancellation = new CancellationTokenSource();
        var output = new RecordingPipeWriter
        {
            OnFlush = () => SynchronizationContext.Current!.Post(_ => cancellation.Cancel(), null),
        };

        SingleThreadContext.Run(async () =>
            await Assert.ThrowsAnyAsync<OperationCanceledException>(() => OrganizationStreamWriter.WriteAsync(
                output, WireFormat.Json.Codec.CreateEncoder(), organization, organization.Members!.Count, cancellation.Token, 4096)));

        Assert.InRange(output.Flushes.Sum(), OrganizationStreamWriter.YieldEvery, OrganizationStreamWriter.YieldEvery + 4096 + (64 * 512));
    }

    [Theory]
    [EachFormat(128 * 1024, OrganizationStreamWriter.DefaultChunkSize)]
    public async Task HandsEachChunkOverInAFewLargeBuffers(string formatKey, int chunkSize)
    {
        var output = new RecordingPipeWriter();

        // Enough members for several chunks even in binary, the smallest format.
        var organization = OrganizationGenerator.Create(100_000);
        await OrganizationStreamWriter.WriteAsync(output, CodecOf(formatKey).CreateEncoder(), organization, organization.Members!.Count, CancellationToken.None, chunkSize);

        // A socket send allocates for every buffer it gathers beyond 8: a pipe answers a request its current buffer
        // cannot hold with a new buffer of the asked size, so a chunk spans its share of 64 KB buffers, the rest of the
        // previous chunk's last one and the batch that crossed it, not a hundred 4 KB blocks.
        Assert.True(output.SegmentsPerFlush.Count >= 3, $"Only {output.SegmentsPerFlush.Count} flushes.");
        Assert.All(output.SegmentsPerFlush, segments => Assert.InRange(segments, 1, (chunkSize / OrganizationStreamWriter.SegmentSize) + 3));
    }

    /// <summary>
    /// A PipeWriter over a real <see cref="Pipe"/> (buffers from the array pool, sized by what is asked for) whose reader
    /// takes everything at each flush, as a socket send would: it records what each flush sends and the buffers it spans.
    /// </summary>
    private sealed class RecordingPipeWriter : PipeWriter
    {
        private readonly Pipe _pipe = new(new PipeOptions(pauseWriterThreshold: 0, useSynchronizationContext: false));

        public List<long> Flushes { get; } = [];

        public List<int> SegmentsPerFlush { get; } = [];

        public long TotalBytes { get; private set; }

        public int CompleteAfterFlushes { get; init; } = int.MaxValue;

        public Action? OnFlush { get; init; }

        public override void Advance(int bytes)
        {
            _pipe.Writer.Advance(bytes);
            TotalBytes += bytes;
        }

        public override Memory<byte> GetMemory(int sizeHint = 0) => _pipe.Writer.GetMemory(sizeHint);

        public override Span<byte> GetSpan(int sizeHint = 0) => _pipe.Writer.GetSpan(sizeHint);

        public override async ValueTask<FlushResult> FlushAsync(CancellationToken cancellationToken = default)
        {
            // As a pipe's flush does: a cancelled token ends it, and it completes at once otherwise.
            cancellationToken.ThrowIfCancellationRequested();
            OnFlush?.Invoke();
            await _pipe.Writer.FlushAsync(cancellationToken);
            Assert.True(_pipe.Reader.TryRead(out var read));
            var segments = 0;
            foreach (var _ in read.Buffer)
            {
                segments++;
            }

            Flushes.Add(read.Buffer.Length);
            SegmentsPerFlush.Add(segments);
            _pipe.Reader.AdvanceTo(read.Buffer.End);
            return new FlushResult(isCanceled: false, isCompleted: Flushes.Count >= CompleteAfterFlushes);
        }

        public override void CancelPendingFlush() => _pipe.Writer.CancelPendingFlush();

        public override void Complete(Exception? exception = null) => _pipe.Writer.Complete(exception);
    }

    /// <summary>Runs async code on one thread: posted continuations and work run in order, only when the running code gives the thread up.</summary>
    private sealed class SingleThreadContext : SynchronizationContext
    {
        private readonly Queue<(SendOrPostCallback Callback, object? State)> _posted = new();

        public static void Run(Func<Task> action)
        {
            var previous = Current;
            var context = new SingleThreadContext();
            SetSynchronizationContext(context);
            try
            {
                var task = action();
                while (!task.IsCompleted)
                {
                    Assert.True(context._posted.Count > 0, "The code waits for something that is not posted to this thread.");
                    var (callback, state) = context._posted.Dequeue();
                    callback(state);
                }

                task.GetAwaiter().GetResult();
            }
            finally
            {
                SetSynchronizationContext(previous);
            }
        }

        public override void Post(SendOrPostCallback d, object? state) => _posted.Enqueue((d, state));
    }
}
