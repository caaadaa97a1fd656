using System.IO.Pipelines;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using WebSerialization.Api.Formats;
using WebSerialization.Api.Organizations;
using WebSerialization.Models;
using WebSerialization.Models.Streaming;

namespace WebSerialization.IntegrationTests;

public sealed class OrganizationResultTests
{
    // Until a response has started, Kestrel answers the body writer with buffers of its own and copies everything
    // written into them into the connection's pipe once the headers go out: for a body under one chunk, all of it.
    [Theory]
    [MemberData(nameof(TheoryRows.Formats), MemberType = typeof(TheoryRows))]
    public async Task StartsTheResponseBeforeAskingForBodyBuffers(WireFormat format)
    {
        var body = new RecordingResponseBody();
        var context = new DefaultHttpContext();
        context.Features.Set<IHttpResponseBodyFeature>(body);
        var organization = OrganizationGenerator.Create(300);

        await new OrganizationResult(organization, 300, new NegotiatedFormat(format, format.MediaType), OrganizationStreamWriter.DefaultChunkSize)
            .ExecuteAsync(context);

        Assert.True(body.BuffersAsked > 0, "The body writer was never asked for a buffer.");
        Assert.Equal(0, body.BuffersAskedBeforeStart);
        OrganizationAssert.Equal(organization, CodecHarness.Decode(format.Codec, body.Written.WrittenSpan.ToArray()));
    }

    /// <summary>A response body that records whether its writer was asked for buffers before the response started.</summary>
    private sealed class RecordingResponseBody : PipeWriter, IHttpResponseBodyFeature
    {
        private bool _started;

        public System.Buffers.ArrayBufferWriter<byte> Written { get; } = new();

        public int BuffersAsked { get; private set; }

        public int BuffersAskedBeforeStart { get; private set; }

        public Stream Stream => throw new NotSupportedException("The organization is written through the PipeWriter.");

        public PipeWriter Writer => this;

        public void DisableBuffering()
        {
        }

        public Task StartAsync(CancellationToken cancellationToken = default)
        {
            _started = true;
            return Task.CompletedTask;
        }

        public Task SendFileAsync(string path, long offset, long? count, CancellationToken cancellationToken = default) =>
            throw new NotSupportedException();

        public Task CompleteAsync() => Task.CompletedTask;

        public override void Advance(int bytes) => Written.Advance(bytes);

        public override Memory<byte> GetMemory(int sizeHint = 0)
        {
            CountAsk();
            return Written.GetMemory(sizeHint);
        }

        public override Span<byte> GetSpan(int sizeHint = 0)
        {
            CountAsk();
            return Written.GetSpan(sizeHint);
        }

        public override ValueTask<FlushResult> FlushAsync(CancellationToken cancellationToken = default) => ValueTask.FromResult(new FlushResult(false, false));

        public override void CancelPendingFlush()
        {
        }

        public override void Complete(Exception? exception = null)
        {
        }

        private void CountAsk()
        {
            BuffersAsked++;
            if (!_started)
            {
                BuffersAskedBeforeStart++;
            }
        }
    }
}
