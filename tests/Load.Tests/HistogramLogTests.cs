using System.Text;
using HdrHistogram;

namespace WebSerialization.Load.Tests;

public class HistogramLogTests
{
    private static readonly DateTimeOffset Start = new(2026, 11, 27, 4, 0, 0, TimeSpan.Zero);

    [Fact]
    public void AMergeOfTwoLogsIsTheHistogramOfEverySampleTheirRunnersMade()
    {
        var random = new Random(25);
        TimeSpan[] Latencies(int count) => [.. Enumerable.Range(0, count).Select(_ => TimeSpan.FromMicroseconds(Math.Exp(6 + (random.NextDouble() * 8))))];
        var (downloadsA, downloadsB, uploadsA, uploadsB) = (Latencies(2000), Latencies(3000), Latencies(150), Latencies(40));
        var a = Log("a.hlog", "runner a",
            new HistogramLogEntry("download-json-10000-r400", LatencyHistogram.Of(downloadsA), 3, 1, 7, 0, 2000 * 1_000L, TimeSpan.FromSeconds(10)),
            new HistogramLogEntry("upload-binary-10000-x4", LatencyHistogram.Of(uploadsA), 0, 0, 0, 150 * 500L, 150 * 20L, TimeSpan.FromSeconds(4)));
        var b = Log("b.hlog", "runner b",
            new HistogramLogEntry("download-json-10000-r400", LatencyHistogram.Of(downloadsB), 4, 2, 9, 0, 3000 * 1_000L, TimeSpan.FromSeconds(12.5)),
            new HistogramLogEntry("upload-binary-10000-x4", LatencyHistogram.Of(uploadsB), 1, 0, 0, 40 * 500L, 40 * 20L, TimeSpan.FromSeconds(5)));

        var merged = MergedLoad.Of([a, b]);

        Assert.Equal(["download-json-10000-r400", "upload-binary-10000-x4"], merged.Select(load => load.Tag));
        var (downloads, uploads) = (merged[0], merged[1]);
        Assert.Equal(LatencyHistogram.Of([.. downloadsA, .. downloadsB]).ToDistribution(), downloads.Latency.ToDistribution());
        Assert.Equal(LatencyHistogram.Of([.. uploadsA, .. uploadsB]).ToDistribution(), uploads.Latency.ToDistribution());
        var all = LatencyHistogram.Of([.. downloadsA, .. downloadsB]);
        Assert.All(new[] { 1, 25, 50, 90, 99, 99.9, 99.99, 100 }, percentile => Assert.Equal(all.Percentile(percentile), downloads.Latency.Percentile(percentile)));
        Assert.Equal((5000L, 7L, 16L, 2, 5000 * 1_000L), (downloads.Succeeded, downloads.Failed, downloads.Late, downloads.Logs, downloads.BytesReceived));
        Assert.Equal((190L, 1L, 1_000.0), (uploads.Succeeded, uploads.Failed, uploads.ResponseBytes!.Value * 50));
        Assert.Equal((2000 / 10.0) + (3000 / 12.5), downloads.RequestsPerSecond!.Value, 9);
        Assert.Equal(((150 * 520 / 4.0) + (40 * 520 / 5.0)) / Units.BytesPerMegabyte, uploads.MegabytesPerSecond!.Value, 12);
    }

    [Fact]
    public void ReadsBackWhatItWrote()
    {
        var latencies = Enumerable.Range(1, 500).Select(i => TimeSpan.FromMicroseconds(i * 37.3)).ToArray();
        var written = new HistogramLogEntry("download-msgpack-1000000-x1", LatencyHistogram.Of(latencies), 2, 0, 0, 0, 123_456_789, TimeSpan.FromSeconds(9.8765432));

        var log = Log("one.hlog", "host ci, pid 42, started 2026-11-27T04:00:00.000Z, dotnet run -c Release --project tests/Load -- --histogram-log one.hlog", written);

        var read = Assert.Single(log.Entries);
        Assert.Equal("host ci, pid 42, started 2026-11-27T04:00:00.000Z, dotnet run -c Release --project tests/Load -- --histogram-log one.hlog", log.Runner);
        Assert.Equal(written with { Latency = read.Latency }, read);
        Assert.Equal(written.Latency.ToDistribution(), read.Latency.ToDistribution());
    }

    [Fact]
    public void WritesOneHistogramPerScenarioAndLoadThatHdrHistogramsOwnReaderReads()
    {
        var results = SampleRun.Results();
        var entries = HistogramLog.Entries(results);
        var bytes = Written("sample run", entries);

        var ran = results.Where(result => result.Outcome != ScenarioOutcome.Skipped).ToArray();
        Assert.Equal(ran.Select(result => result.ReportName), entries.Select(entry => entry.Tag));
        Assert.Equal(ran.Select(result => (long)result.Succeeded.Count()), entries.Select(entry => entry.Succeeded));
        Assert.Equal(ran.Select(result => (long)result.FailedCount + result.WarmUpFailures), entries.Select(entry => entry.Failed));
        using var reader = new HistogramLogReader(new MemoryStream(bytes));
        var histograms = reader.ReadHistograms().ToArray();
        Assert.Equal(entries.Select(entry => entry.Tag), histograms.Select(histogram => histogram.Tag));
        Assert.Equal(entries.Select(entry => entry.Succeeded), histograms.Select(histogram => histogram.TotalCount));
        Assert.All(Encoding.UTF8.GetString(bytes), character => Assert.True(character < 128));
    }

    [Theory]
    [InlineData("truncated", "line 7: not a histogram line")]
    [InlineData("payload altered", "line 7: the histogram does not decode")]
    [InlineData("junk line", "line 6: not a histogram line")]
    [InlineData("no load line", "the histogram download-json-1000-x1 has no Load line")]
    [InlineData("count edited", "line 5: the Load line of download-json-1000-x1 says ok=11, but its histogram (line 7) holds 10 requests")]
    [InlineData("load line garbled", "line 5: not a Load line")]
    [InlineData("no runner line", "no #[Runner: ...] line")]
    [InlineData("another version", "written by another version of the load runner")]
    [InlineData("a plain HdrHistogram log", "not a histogram log of the load runner")]
    public void RefusesAGarbledLogNamingTheFileAndTheLine(string damage, string message)
    {
        var lines = Encoding.UTF8.GetString(Written("runner", Entry("download-json-1000-x1", 10))).Split('\n', StringSplitOptions.RemoveEmptyEntries).ToList();
        Assert.StartsWith("Tag=download-json-1000-x1,", lines[6], StringComparison.Ordinal);
        Action damageTheLog = damage switch
        {
            "truncated" => () => lines[6] = lines[6][..(lines[6].Length - 7)] + "%",
            "payload altered" => () => lines[6] = lines[6][..(lines[6].LastIndexOf(',') + 1)] + Convert.ToBase64String(Encoding.ASCII.GetBytes("base64, but of no histogram")),
            "junk line" => () => lines.Insert(5, "this is not a histogram"),
            "no load line" => () => lines.RemoveAt(4),
            "count edited" => () => lines[4] = lines[4].Replace(" ok=10 ", " ok=11 ", StringComparison.Ordinal),
            "load line garbled" => () => lines[4] = lines[4].Replace(" failed=", " failures=", StringComparison.Ordinal),
            "no runner line" => () => lines.RemoveAt(3),
            "another version" => () => lines[2] = lines[2].Replace("histogram log 1:", "histogram log 2:", StringComparison.Ordinal),
            _ => () => lines.RemoveRange(2, 3),
        };
        damageTheLog();

        var error = Assert.Throws<InvalidDataException>(() => HistogramLog.Read("damaged.hlog", new MemoryStream(Encoding.UTF8.GetBytes(string.Join('\n', lines)))));

        Assert.StartsWith("damaged.hlog", error.Message, StringComparison.Ordinal);
        Assert.Contains(message, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void RefusesAHistogramRecordedWithAnotherPrecision()
    {
        var lines = Encoding.UTF8.GetString(Written("runner", Entry("download-json-1000-x1", 10))).Split('\n', StringSplitOptions.RemoveEmptyEntries);
        var coarse = new LongHistogram(1, 1_000_000, 2) { Tag = "download-json-1000-x1" };
        for (var i = 1; i <= 10; i++)
            coarse.RecordValue(i * 1000);

        using var other = new MemoryStream();
        HistogramLogWriter.Write(other, Start.UtcDateTime, coarse);
        lines[6] = new StreamReader(new MemoryStream(other.ToArray()), detectEncodingFromByteOrderMarks: true).ReadToEnd().Split('\n').Single(line => line.StartsWith("Tag=", StringComparison.Ordinal));

        var error = Assert.Throws<InvalidDataException>(() => HistogramLog.Read("coarse.hlog", new MemoryStream(Encoding.UTF8.GetBytes(string.Join('\n', lines)))));

        Assert.Contains("coarse.hlog, line 7: the histogram download-json-1000-x1 was recorded from 1 to 1000000 with 2 significant digits", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void RefusesToMergeLogsOfDifferentScenariosOrLoads()
    {
        var a = Log("a.hlog", "runner a", Entry("download-json-1000-x1", 10), Entry("download-json-1000-x4", 10));
        var b = Log("b.hlog", "runner b", Entry("download-json-1000-x1", 10), Entry("download-json-1000-x2", 10));

        var error = Assert.Throws<InvalidDataException>(() => MergedLoad.Of([a, b]));

        Assert.Equal(
            "The logs measured different scenarios or loads: a.hlog has download-json-1000-x4, which b.hlog has not; b.hlog has download-json-1000-x2, which a.hlog has not. "
            + "Merge the logs of runners given the same --scenarios, --count and --copies or --rate.",
            error.Message);
    }

    [Fact]
    public void RefusesToMergeTheSameRunTwice()
    {
        var bytes = Written("host ci, pid 42", Entry("download-json-1000-x1", 10));
        var error = Assert.Throws<InvalidDataException>(() => MergedLoad.Of([HistogramLog.Read("a.hlog", new MemoryStream(bytes)), HistogramLog.Read("copy-of-a.hlog", new MemoryStream(bytes))]));
        Assert.StartsWith("a.hlog and copy-of-a.hlog are the same run (host ci, pid 42)", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void TheMergedReportShowsTheTotalsAndThePercentilesOfTheMergedHistograms()
    {
        var a = Log("a.hlog", "runner a", Entry("download-json-1000-r20", 60, seconds: 3));
        var b = Log("b.hlog", "runner b", Entry("download-json-1000-r20", 40, from: 61, failed: 2, seconds: 2));
        MarkdownReportTests.ContainsAll(MergedReport.Markdown([a, b], MergedLoad.Of([a, b])), "| download-json-1000-r20 | 2 | 100 | 2 | 0 | 0.001 | 40.0 | 0.0 | 1.0 | 50.5 | 50.0 | 95.0 | 99.0 | 100.0 |", "- `a.hlog`: runner a");
    }

    [Fact]
    public async Task TheMergeCommandExitsOnWhatItMerged()
    {
        using var folder = new TemporaryFolder("histogram-logs-");
        string File(string name, string runner, HistogramLogEntry entry)
        {
            var path = Path.Combine(folder.Path, name);
            System.IO.File.WriteAllBytes(path, Written(runner, entry));
            return path;
        }

        var a = File("a.hlog", "runner a", Entry("download-json-1000-x1", 10));

        Assert.Equal(0, await MergeCommand.RunAsync([a, File("b.hlog", "runner b", Entry("download-json-1000-x1", 20))]));
        Assert.Equal(1, await MergeCommand.RunAsync([a, File("failed.hlog", "runner c", Entry("download-json-1000-x1", 20) with { Failed = 1 })]));
        Assert.Equal(2, await MergeCommand.RunAsync([a, File("other.hlog", "runner d", Entry("upload-json-1000-x1", 20))]));
        Assert.Equal(2, await MergeCommand.RunAsync([a, Path.Combine(folder.Path, "missing.hlog")]));
        Assert.Equal(2, await MergeCommand.RunAsync([]));
        Assert.Equal(0, await MergeCommand.RunAsync(["--help"]));
    }

    private static HistogramLogEntry Entry(string tag, int requests, int from = 1, long failed = 0, double seconds = 1) =>
        new(tag, LatencyHistogram.Of(Enumerable.Range(from, requests).Select(ms => TimeSpan.FromMilliseconds(ms))), failed, 0, 0, 0, requests * 1_000L, TimeSpan.FromSeconds(seconds));

    private static byte[] Written(string runner, params IReadOnlyList<HistogramLogEntry> entries)
    {
        using var stream = new MemoryStream();
        HistogramLog.Write(stream, Start, runner, entries);
        return stream.ToArray();
    }

    private static HistogramLogFile Log(string name, string runner, params IReadOnlyList<HistogramLogEntry> entries) =>
        HistogramLog.Read(name, new MemoryStream(Written(runner, entries)));
}
