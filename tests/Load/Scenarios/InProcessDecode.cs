using System.Diagnostics;
using System.IO.Pipelines;
using WebSerialization.Models.Codecs;
using WebSerialization.Models.Streaming;

namespace WebSerialization.Load.Scenarios;

/// <summary>
/// The upload target's yardstick: the uploaded bytes decoded in the runner's own process by what the server runs for
/// an upload (<see cref="OrganizationStreamReader"/> into an <see cref="OrganizationSummarizer"/>), from a pipe that
/// hands them over 64 KB a read as tests/Benchmarks' stream rows do. The median of three, each after a full collection.
/// </summary>
public static class InProcessDecode
{
    private const int Runs = 3;
    private const int ReadSize = 64 * 1024;

    public sealed record Measurement(TimeSpan Median, int Bytes);

    public static async Task<Measurement> MeasureAsync(WireFormat format, byte[] payload, CancellationToken cancellationToken)
    {
        var codec = format.Codec;
        var times = new TimeSpan[Runs];
        for (var run = 0; run < Runs; run++)
        {
            GC.Collect(GC.MaxGeneration, GCCollectionMode.Forced, blocking: true, compacting: true);
            GC.WaitForPendingFinalizers();
            var input = PipeReader.Create(new MemoryStream(payload, writable: false), new StreamPipeReaderOptions(bufferSize: ReadSize, minimumReadSize: ReadSize));
            var summarizer = new OrganizationSummarizer();
            var started = Stopwatch.GetTimestamp();
            await OrganizationStreamReader.ReadToEndAsync(input, codec.CreateDecoder(DecodeLimits.Default, summarizer), cancellationToken);
            times[run] = Stopwatch.GetElapsedTime(started);
            await input.CompleteAsync();
        }

        Array.Sort(times);
        return new Measurement(times[Runs / 2], payload.Length);
    }
}
