using System.Diagnostics;
using System.IO.Pipelines;
using WebSerialization.Models.Codecs;
using WebSerialization.Models.Streaming;

namespace WebSerialization.Load.Scenarios;

/// <summary>
/// The upload target's yardstick: the uploaded bytes decoded in the runner's own process by what the server runs for
/// an upload (<see cref="OrganizationStreamReader"/> into an <see cref="OrganizationSummarizer"/>), from a pipe that
/// hands them over 64 KB a read as tests/Benchmarks' stream rows do. Measured warm, as the server it is held against
/// is: decodes run until one compiles no method (or the warm-up bound), then the median of five, each after a full
/// collection.
/// </summary>
public static class InProcessDecode
{
    public const int MeasuredRuns = 5;
    private const int MaxWarmUpRuns = 30;
    private const int ReadSize = 64 * 1024;
    private static readonly TimeSpan WarmUpBound = TimeSpan.FromSeconds(15);

    public sealed record Measurement(TimeSpan Median, int Bytes, int WarmUpRuns);

    public static async Task<Measurement> MeasureAsync(WireFormat format, byte[] payload, CancellationToken cancellationToken)
    {
        var warmUp = Stopwatch.StartNew();
        var warmUpRuns = 0;
        while (warmUpRuns < MaxWarmUpRuns && warmUp.Elapsed < WarmUpBound)
        {
            var compiledBefore = System.Runtime.JitInfo.GetCompiledMethodCount();
            await DecodeAsync(format, payload, cancellationToken);
            warmUpRuns++;
            if (warmUpRuns > 1 && System.Runtime.JitInfo.GetCompiledMethodCount() == compiledBefore)
            {
                break;
            }
        }

        var times = new TimeSpan[MeasuredRuns];
        for (var run = 0; run < MeasuredRuns; run++)
        {
            GC.Collect(GC.MaxGeneration, GCCollectionMode.Forced, blocking: true, compacting: true);
            GC.WaitForPendingFinalizers();
            times[run] = await DecodeAsync(format, payload, cancellationToken);
        }

        Array.Sort(times);
        return new Measurement(times[MeasuredRuns / 2], payload.Length, warmUpRuns);
    }

    private static async Task<TimeSpan> DecodeAsync(WireFormat format, byte[] payload, CancellationToken cancellationToken)
    {
        var input = PipeReader.Create(new MemoryStream(payload, writable: false), new StreamPipeReaderOptions(bufferSize: ReadSize, minimumReadSize: ReadSize));
        var started = Stopwatch.GetTimestamp();
        await OrganizationStreamReader.ReadToEndAsync(input, format.Codec.CreateDecoder(DecodeLimits.Default, new OrganizationSummarizer()), cancellationToken);
        var elapsed = Stopwatch.GetElapsedTime(started);
        await input.CompleteAsync();
        return elapsed;
    }
}
