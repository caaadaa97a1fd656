using System.Diagnostics;
using WebSerialization.Models.Streaming;

namespace WebSerialization.Codecs.Tests.Streaming;

/// <summary>
/// The hand-over a pipelined conversion makes from its decoding thread to its writing thread: every member arrives
/// whole and in order, null texts stay null, the decoder waits once a few batches are queued, and a failure on either
/// side ends the other instead of leaving it waiting.
/// </summary>
public sealed class MemberPipelineTests
{
    [Fact]
    public async Task PassesEveryMemberOnInOrderAndCompletesAfterTheLast()
    {
        // Many batches' worth, texts null and empty, and one text larger than a batch.
        var members = OrganizationGen.Random(21, 30_000).Members!.ToList();
        members.Insert(100, new Member { Id = -1, Name = null, Description = string.Empty, Address = new string('é', MemberPipeline.BatchBytes), Value = double.NaN, UpdateTime = long.MinValue });
        var sink = new RecordingSink();

        using (var pipeline = new MemberPipeline(sink, CancellationToken.None))
        {
            pipeline.BeginMembers(new OrganizationHeader(7, ["a"], -1));
            foreach (var member in members)
            {
                Add(pipeline, member);
            }

            pipeline.Complete(new OrganizationHeader(7, ["a"], members.Count));
            Assert.Null(sink.Completed);
            await pipeline.FinishAsync();
        }

        Assert.Equal(7, sink.Begun!.Value.Id);
        Assert.Equal(members.Count, sink.Completed!.Value.MemberCount);
        Assert.Equal(members.Count, sink.Members.Count);
        Assert.Equal(OrganizationChecksum.Compute(new Organization { Members = members }), OrganizationChecksum.Compute(new Organization { Members = sink.Members }));
        Assert.Null(sink.Members[100].Name);
        Assert.Equal(string.Empty, sink.Members[100].Description);
    }

    [Fact]
    public async Task KeepsTheDecoderWaitingWhileTheWritingThreadIsBehind()
    {
        var sink = new RecordingSink { Gate = new ManualResetEventSlim(false) };
        var member = OrganizationGen.Random(22, 1).Members![0];
        using var pipeline = new MemberPipeline(sink, CancellationToken.None);
        var added = 0;

        // A thread of its own, so that a busy thread pool cannot keep the decoder from starting.
        var adding = new Thread(() =>
        {
            for (var i = 0; i < 200_000; i++)
            {
                Add(pipeline, member);
                Interlocked.Increment(ref added);
            }
        }) { IsBackground = true };
        adding.Start();

        // The writing thread holds one batch at the gate; the queue holds MaxPendingBatches; the decoder fills one more
        // and then waits, where unbounded it would add all 200,000 in milliseconds.
        var perBatch = MemberPipeline.BatchBytes / (32 + Encoding.UTF8.GetByteCount(member.Name + member.Description + member.Address));
        try
        {
            var waited = Stopwatch.StartNew();
            while (Volatile.Read(ref added) < MemberPipeline.MaxPendingBatches * perBatch && waited.Elapsed < TimeSpan.FromSeconds(30))
            {
                await Task.Delay(10);
            }

            await Task.Delay(300);
            Assert.True(adding.IsAlive);
            Assert.InRange(Volatile.Read(ref added), MemberPipeline.MaxPendingBatches * perBatch, (MemberPipeline.MaxPendingBatches + 3) * perBatch);
        }
        finally
        {
            // A failed assertion must not leave the writing thread at the gate, where disposing the pipeline would wait.
            sink.Gate.Set();
        }

        adding.Join();
        await pipeline.FinishAsync();
        Assert.Equal(200_000, sink.Members.Count);
    }

    [Fact]
    public async Task ThrowsTheWritingThreadsErrorToTheDecoder()
    {
        var sink = new RecordingSink { FailAt = 5000 };
        var member = OrganizationGen.Random(23, 1).Members![0];
        using var pipeline = new MemberPipeline(sink, CancellationToken.None);

        var error = await Assert.ThrowsAsync<InvalidOperationException>(async () =>
        {
            for (var i = 0; i < 1_000_000; i++)
            {
                Add(pipeline, member);
            }

            await pipeline.FinishAsync();
        });

        Assert.Equal("member 5000", error.Message);
    }

    [Fact]
    public async Task StopsADecoderWaitingForRoomWhenCancelled()
    {
        using var cancellation = new CancellationTokenSource();
        var sink = new RecordingSink { Gate = new ManualResetEventSlim(false) };
        var member = OrganizationGen.Random(24, 1).Members![0];
        var pipeline = new MemberPipeline(sink, cancellation.Token);

        var adding = Task.Run(() =>
        {
            while (true)
            {
                Add(pipeline, member);
            }
        });
        await Task.Delay(200);
        await cancellation.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => adding);
        sink.Gate.Set();
        pipeline.Dispose();
    }

    private static void Add(MemberPipeline pipeline, Member member)
    {
        var name = member.Name is null ? Utf8Text.Null : new Utf8Text(Encoding.UTF8.GetBytes(member.Name));
        var description = member.Description is null ? Utf8Text.Null : new Utf8Text(Encoding.UTF8.GetBytes(member.Description));
        var address = member.Address is null ? Utf8Text.Null : new Utf8Text(Encoding.UTF8.GetBytes(member.Address));
        pipeline.AddMember(new MemberView(member.Id, name, description, address, member.Value, member.UpdateTime));
    }

    private sealed class RecordingSink : IOrganizationSink
    {
        public List<Member> Members { get; } = [];

        public OrganizationHeader? Begun { get; private set; }

        public OrganizationHeader? Completed { get; private set; }

        public ManualResetEventSlim? Gate { get; init; }

        public int FailAt { get; init; } = -1;

        public void BeginMembers(OrganizationHeader header) => Begun = header;

        public void AddMember(in MemberView member)
        {
            Gate?.Wait();
            if (Members.Count == FailAt)
            {
                throw new InvalidOperationException($"member {FailAt}");
            }

            Members.Add(member.ToMember());
        }

        public void Complete(OrganizationHeader header) => Completed = header;
    }
}
