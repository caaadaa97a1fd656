using System.Text;
using System.Text.RegularExpressions;
using HdrHistogram;

namespace WebSerialization.Load.Reports;

/// <summary>A run's latencies as an HdrHistogram log (<c>--histogram-log FILE</c>), so that the runs of several runner processes,
/// on one machine or several, can be merged into one report (<see cref="MergedLoad"/>). HdrHistogram's own
/// <see cref="HistogramLogWriter"/> writes the histograms and its <see cref="HistogramLogReader"/> reads them: one per
/// scenario and load, tagged with its name, of the successful requests' latencies in microseconds. Comment lines,
/// which HdrHistogram's readers skip, carry what a histogram cannot: which runner wrote the file, and per tag the
/// failed, dropped and late requests, the body bytes and the measured time. The file is UTF-8 with LF line ends.</summary>
public static partial class HistogramLog
{
    /// <summary>The version of the comment lines below; a merge refuses a log of another.</summary>
    public const int Version = 1;

    private const string SignaturePrefix = "#[WebSerialization.Load histogram log ";

    private const string Signature = SignaturePrefix + "1: one histogram per scenario and load, tagged with its name, of the latencies of its successful requests "
        + "in microseconds (from each request's intended start to its last byte; Interval_Max therefore reads in seconds); "
        + "a Load line per tag with the counts a merge adds up]";

    private const string RunnerPrefix = "#[Runner: ";
    private const string LoadPrefix = "#[Load: ";
    private const string Legend = "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"";

    /// <summary>The entries of a run's results: one per scenario and load (and CPU layout, when the run compared two), skipped scenarios left out.</summary>
    public static IReadOnlyList<HistogramLogEntry> Entries(IReadOnlyList<ScenarioResult> results)
    {
        var measured = results.Where(result => result.Outcome != ScenarioOutcome.Skipped).ToArray();
        var layouts = measured.Select(result => result.Layout).Distinct().Count() > 1;
        return [.. measured
            .GroupBy(result => result.ReportName + (layouts ? "-" + CpuPlan.Name(result.Layout) : string.Empty))
            .Select(group => new HistogramLogEntry(
                group.Key,
                LatencyHistogram.Of(group.SelectMany(result => result.Succeeded).Select(sample => sample.Latency)),
                group.Sum(result => (long)result.FailedCount + result.WarmUpFailures),
                group.Sum(result => (long)result.DroppedRequests),
                group.Sum(result => (long)result.LateRequests),
                group.SelectMany(result => result.Succeeded).Sum(sample => sample.BytesSent),
                group.SelectMany(result => result.Succeeded).Sum(sample => sample.BytesReceived),
                group.Aggregate(TimeSpan.Zero, (total, result) => total + result.Elapsed)))];
    }

    /// <summary>Writes the run's log to <paramref name="path"/>; returns its full path.</summary>
    public static async Task<string> WriteAsync(string path, RunDescription run, IReadOnlyList<ScenarioResult> results)
    {
        var fullPath = Path.GetFullPath(path);
        var runner = string.Create(CultureInfo.InvariantCulture, $"host {Environment.MachineName}, pid {Environment.ProcessId}, started {run.StartedAt:yyyy-MM-ddTHH:mm:ss.fffZ}, {run.CommandLine}");
        await using var file = File.Create(fullPath);
        Write(file, run.StartedAt, runner, Entries(results));
        return fullPath;
    }

    /// <summary>Writes a log of <paramref name="entries"/> to <paramref name="stream"/>, which stays open.</summary>
    /// <param name="startedAt">When the run started: the log's StartTime, and each histogram's start.</param>
    /// <param name="runner">Which runner wrote it (one line), for the merged report.</param>
    /// <param name="entries">One per tag; a tag has no comma or white space.</param>
    public static void Write(Stream stream, DateTimeOffset startedAt, string runner, IReadOnlyList<HistogramLogEntry> entries)
    {
        if (entries.FirstOrDefault(entry => !TagPattern().IsMatch(entry.Tag)) is { } untaggable)
            throw new ArgumentException($"'{untaggable.Tag}' cannot be a histogram log's tag: it needs letters, digits or ._:/- only.", nameof(entries));

        if (entries.Select(entry => entry.Tag).Distinct(StringComparer.Ordinal).Count() != entries.Count)
            throw new ArgumentException("Two entries have the same tag.", nameof(entries));

        var lines = InInvariantCulture(() =>
        {
            using var written = new MemoryStream();
            using (var writer = new HistogramLogWriter(written))
                writer.Write(startedAt.UtcDateTime, [.. entries.Select(entry => Tagged(entry, startedAt))]);

            // The package writes UTF-16; the file is written as UTF-8, which is ASCII here, as HdrHistogram's other
            // implementations write their logs.
            written.Position = 0;
            using var reader = new StreamReader(written, detectEncodingFromByteOrderMarks: true);
            return reader.ReadToEnd().Split('\n', StringSplitOptions.RemoveEmptyEntries).ToList();
        });

        var legend = lines.IndexOf(Legend);
        lines.InsertRange(legend < 0 ? lines.Count : legend,
        [
            Signature,
            RunnerPrefix + runner.ReplaceLineEndings(" ") + "]",
            .. entries.Select(entry => string.Create(CultureInfo.InvariantCulture,
                $"{LoadPrefix}Tag={entry.Tag} ok={entry.Succeeded} failed={entry.Failed} dropped={entry.Dropped} late={entry.Late} sent={entry.BytesSent} received={entry.BytesReceived} seconds={entry.Elapsed.TotalSeconds:0.0######}]")),
        ]);
        using var output = new StreamWriter(stream, new UTF8Encoding(encoderShouldEmitUTF8Identifier: false), leaveOpen: true) { NewLine = "\n" };
        foreach (var line in lines)
            output.WriteLine(line);
    }

    /// <summary>Reads a log written by <see cref="WriteAsync"/>; throws <see cref="InvalidDataException"/>, naming the file and line, when it is not one.</summary>
    public static HistogramLogFile Read(string name, Stream stream)
    {
        using var copy = new MemoryStream();
        stream.CopyTo(copy);
        var bytes = copy.ToArray();
        using var text = new StreamReader(new MemoryStream(bytes), Encoding.UTF8, detectEncodingFromByteOrderMarks: true);
        var lines = text.ReadToEnd().Split('\n').Select(line => line.TrimEnd('\r')).ToArray();
        if (lines.Length > 0 && lines[^1].Length == 0)
            lines = lines[..^1];

        if (lines.FirstOrDefault(line => line.StartsWith(SignaturePrefix, StringComparison.Ordinal)) is not { } signature)
            throw new InvalidDataException($"{name}: not a histogram log of the load runner (no line starting '{SignaturePrefix.TrimEnd()}'): write one with --histogram-log FILE.");

        if (signature != Signature)
            throw new InvalidDataException($"{name}: written by another version of the load runner ('{signature[..Math.Min(signature.Length, SignaturePrefix.Length + 8)]}...'); this one reads version {Version}.");

        string? runner = null;
        var loads = new Dictionary<string, (int Line, long Ok, HistogramLogEntry Counts)>(StringComparer.Ordinal);
        var histogramLines = new List<(int Line, string Tag)>();
        for (var index = 0; index < lines.Length; index++)
        {
            var (line, number) = (lines[index], index + 1);
            if (line.StartsWith(RunnerPrefix, StringComparison.Ordinal) && line.EndsWith(']'))
            {
                runner = line[RunnerPrefix.Length..^1];
            }
            else if (line.StartsWith(LoadPrefix, StringComparison.Ordinal))
            {
                var load = LoadPattern().Match(line);
                if (!load.Success)
                    throw Garbled(name, number, $"not a Load line ({LoadPrefix}Tag=NAME ok=N failed=N dropped=N late=N sent=N received=N seconds=S]): '{Shorten(line)}'");

                var tag = load.Groups["tag"].Value;
                long Count(string group) => long.Parse(load.Groups[group].Value, NumberStyles.None, CultureInfo.InvariantCulture);
                var seconds = double.Parse(load.Groups["seconds"].Value, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture);
                var counts = new HistogramLogEntry(tag, new LatencyHistogram(), Count("failed"), Count("dropped"), Count("late"), Count("sent"), Count("received"), TimeSpan.FromTicks((long)Math.Round(seconds * TimeSpan.TicksPerSecond)));
                if (!loads.TryAdd(tag, (number, Count("ok"), counts)))
                    throw Garbled(name, number, $"a second Load line for {tag} (the first is line {loads[tag].Line})");
            }
            else if (line.StartsWith('#') || line == Legend)
            {
                // HdrHistogram's header lines and comments.
            }
            else if (HistogramPattern().Match(line) is { Success: true } histogram)
            {
                histogramLines.Add((number, histogram.Groups["tag"].Value));
            }
            else
            {
                throw Garbled(name, number, $"not a histogram line (Tag=NAME,start,interval,max,base64 of the compressed histogram): '{Shorten(line)}'");
            }
        }

        if (runner is null)
            throw new InvalidDataException($"{name}: no {RunnerPrefix.TrimEnd()} ...] line saying which runner wrote it.");

        var decoded = Decode(name, bytes, histogramLines);
        var entries = new List<HistogramLogEntry>();
        for (var i = 0; i < decoded.Count; i++)
        {
            var (number, tag) = histogramLines[i];
            var histogram = decoded[i];
            if (histogram.Tag != tag)
                throw Garbled(name, number, $"HdrHistogram read the tag '{histogram.Tag}' where the line says '{tag}'");

            if (!LatencyHistogram.RecordsAsThis(histogram))
                throw Garbled(name, number, string.Create(CultureInfo.InvariantCulture, $"the histogram {tag} was recorded from {histogram.LowestTrackableValue} to {histogram.HighestTrackableValue} with {histogram.NumberOfSignificantValueDigits} significant digits, not as the runner records (1 µs to 1 hour, 3 significant digits), so it cannot be added exactly"));

            if (entries.Any(entry => entry.Tag == tag))
                throw Garbled(name, number, $"a second histogram tagged {tag}");

            if (!loads.TryGetValue(tag, out var load))
                throw Garbled(name, number, $"the histogram {tag} has no Load line with its counts");

            if (load.Ok != histogram.TotalCount)
                throw Garbled(name, load.Line, string.Create(CultureInfo.InvariantCulture, $"the Load line of {tag} says ok={load.Ok}, but its histogram (line {number}) holds {histogram.TotalCount} requests"));

            var latency = new LatencyHistogram();
            latency.Add(histogram);
            entries.Add(load.Counts with { Latency = latency });
        }

        if (loads.Keys.FirstOrDefault(tag => entries.All(entry => entry.Tag != tag)) is { } orphan)
            throw Garbled(name, loads[orphan].Line, $"the Load line of {orphan} has no histogram");

        return new HistogramLogFile(name, runner, entries);
    }

    public static HistogramLogFile ReadFile(string path)
    {
        using var file = File.OpenRead(path);
        return Read(path, file);
    }

    private static HistogramBase Tagged(HistogramLogEntry entry, DateTimeOffset startedAt)
    {
        var histogram = entry.Latency.ToHdrHistogram();
        histogram.Tag = entry.Tag;
        histogram.StartTimeStamp = startedAt.ToUnixTimeMilliseconds();
        histogram.EndTimeStamp = histogram.StartTimeStamp + (long)entry.Elapsed.TotalMilliseconds;
        return histogram;
    }

    // HdrHistogram's reader, over lines already checked; a payload that does not decode is reported on its line.
    private static List<HistogramBase> Decode(string name, byte[] bytes, List<(int Line, string Tag)> histogramLines) => InInvariantCulture(() =>
    {
        var decoded = new List<HistogramBase>();
        using var reader = new HistogramLogReader(new MemoryStream(bytes));
        using var histograms = reader.ReadHistograms().GetEnumerator();
        while (true)
        {
            try
            {
                if (!histograms.MoveNext())
                    return decoded;
            }
            catch (Exception exception) when (exception is FormatException or ArgumentException or InvalidDataException or IndexOutOfRangeException or InvalidOperationException or OverflowException or NotSupportedException or IOException)
            {
                var line = decoded.Count < histogramLines.Count ? histogramLines[decoded.Count].Line : histogramLines.LastOrDefault().Line;
                throw Garbled(name, line, $"the histogram does not decode ({exception.GetType().Name}: {exception.Message})");
            }

            decoded.Add(histograms.Current);
        }
    });

    // The package formats and parses its numbers in the current culture; the log is always invariant.
    private static T InInvariantCulture<T>(Func<T> action)
    {
        var culture = CultureInfo.CurrentCulture;
        CultureInfo.CurrentCulture = CultureInfo.InvariantCulture;
        try
        {
            return action();
        }
        finally
        {
            CultureInfo.CurrentCulture = culture;
        }
    }

    private static InvalidDataException Garbled(string name, int line, string reason) =>
        new(string.Create(CultureInfo.InvariantCulture, $"{name}, line {line}: {reason}."));

    private static string Shorten(string line) => line.Length <= 60 ? line : line[..60] + "...";

    [GeneratedRegex(@"^[A-Za-z0-9._:/-]+$")]
    private static partial Regex TagPattern();

    [GeneratedRegex(@"^#\[Load: Tag=(?<tag>[A-Za-z0-9._:/-]+) ok=(?<ok>\d+) failed=(?<failed>\d+) dropped=(?<dropped>\d+) late=(?<late>\d+) sent=(?<sent>\d+) received=(?<received>\d+) seconds=(?<seconds>\d+(\.\d+)?)\]$")]
    private static partial Regex LoadPattern();

    [GeneratedRegex(@"^Tag=(?<tag>[A-Za-z0-9._:/-]+),\d+\.\d+,\d+\.\d+,\d+\.\d+,[A-Za-z0-9+/]+={0,2}$")]
    private static partial Regex HistogramPattern();
}

/// <summary>One scenario and load in a histogram log (<see cref="HistogramLog"/>): the latencies of its successful requests and
/// the counts a merge adds up besides. Repetitions and capacity steps of the same name are one entry.</summary>
/// <param name="Latency">The successful requests' latencies (from the intended start to the last byte).</param>
/// <param name="Failed">Measured requests that failed (dropped ones included), plus failed warm-up requests, as the summary's Failed.</param>
/// <param name="Dropped">Open model: requests never sent because too many were in flight (counted in <paramref name="Failed"/>).</param>
/// <param name="Late">Open model: requests sent late (their lateness is in their latency).</param>
/// <param name="BytesSent">Request body bytes of the successful requests (and BytesReceived their response bodies').</param>
/// <param name="Elapsed">The measured phases' time, all repetitions together.</param>
public sealed record HistogramLogEntry(string Tag, LatencyHistogram Latency, long Failed, long Dropped, long Late, long BytesSent, long BytesReceived, TimeSpan Elapsed)
{
    public long Succeeded => Latency.Count;
}

/// <summary>A histogram log read back (<see cref="HistogramLog.Read"/>): which runner wrote it (host, process, start time and command line), and its entries in file order.</summary>
public sealed record HistogramLogFile(string Name, string Runner, IReadOnlyList<HistogramLogEntry> Entries);
