using System.Globalization;
using WebSerialization.Benchmarks.Contenders;

namespace WebSerialization.Benchmarks.Reporting;

/// <summary>
/// The issue's targets, as ratios within the run. Each check gives one line that starts with PASS, MISS, or SKIP (a
/// row it needs was filtered out or failed).
/// </summary>
public static class TargetEvaluation
{
    /// <summary>The most a streaming serialization of the whole organization may allocate: 1 MB (2^20 bytes).</summary>
    public const long StreamingAllocationBudget = 1 << 20;

    /// <summary>How many times faster than the seed's BinaryWriter/BinaryReader our binary format must be.</summary>
    public const double SeedSpeedup = 2.0;

    public static IReadOnlyList<string> Evaluate(BenchmarkResults results)
    {
        ArgumentNullException.ThrowIfNull(results);
        var binary = results.Rows.Where(row => row.Family == ContenderFamily.Binary).ToList();
        var others = results.Rows.Where(row => row.Family != ContenderFamily.Binary).ToList();
        var seed = results.Rows.FirstOrDefault(row => row.Family == ContenderFamily.SeedBinaryWriter);
        var lines = new List<string>
        {
            Fastest("serialize", binary, others, row => row.SerializeMs),
            Fastest("deserialize", binary, others, row => row.DeserializeMs),
            FasterThanSeed("serialize", binary, seed, row => row.SerializeMs),
            FasterThanSeed("deserialize", binary, seed, row => row.DeserializeMs),
        };
        lines.AddRange(Smaller(binary, results.Rows.FirstOrDefault(row => row.Family == ContenderFamily.SeedCompressedMessagePack)));
        lines.AddRange(results.Rows.Where(row => row.Serializer.IsStreaming).Select(StreamingAllocation));
        return lines;
    }

    private static string Fastest(string operation, List<MeasuredRow> binary, List<MeasuredRow> others, Func<MeasuredRow, double?> time)
    {
        var target = $"Binary is the fastest row to {operation}";
        var measured = others.Where(row => time(row) is not null).ToList();
        if (binary.Any(row => time(row) is null) || measured.Count == 0)
        {
            return $"SKIP {target}: not every row was measured.";
        }

        var best = measured.MinBy(row => time(row))!;
        var slowestBinary = binary.MaxBy(row => time(row))!;
        var pass = time(slowestBinary) < time(best);
        var each = string.Join(", ", binary.Select(row => $"{row.Name} {Ms(time(row))}"));
        return $"{(pass ? "PASS" : "MISS")} {target}: {each}; the fastest other row is {best.Name} at {Ms(time(best))} " +
            $"({Ratio(time(best)!.Value / time(slowestBinary)!.Value)} the slower Binary row's time).";
    }

    private static string FasterThanSeed(string operation, List<MeasuredRow> binary, MeasuredRow? seed, Func<MeasuredRow, double?> time)
    {
        var target = $"Binary is at least {SeedSpeedup:0}x faster than the seed's BinaryWriter/BinaryReader to {operation}";
        if (seed is null || time(seed) is null || binary.Any(row => time(row) is null))
        {
            return $"SKIP {target}: not every row was measured.";
        }

        var ratios = binary.Select(row => (row.Name, Ratio: time(seed)!.Value / time(row)!.Value)).ToList();
        var pass = ratios.All(r => r.Ratio >= SeedSpeedup);
        var each = string.Join(", ", ratios.Select(r => $"{r.Name} {Ratio(r.Ratio)}"));
        var shortfall = pass ? string.Empty : $"; short of {SeedSpeedup:0}x by {Percent(1 - (ratios.Min(r => r.Ratio) / SeedSpeedup))}";
        return $"{(pass ? "PASS" : "MISS")} {target}: seed {Ms(time(seed))}, {each}{shortfall}.";
    }

    private static IEnumerable<string> Smaller(List<MeasuredRow> binary, MeasuredRow? compressed)
    {
        var size = binary.Select(row => row.SizeBytes).FirstOrDefault(bytes => bytes is not null);
        if (size is null)
        {
            yield return "SKIP Binary is smaller than the seed's MessagePack + LZ4: no Binary size.";
            yield break;
        }

        var seedRatio = SeedArticle.MessagePackLz4Bytes / (double)size.Value;
        yield return $"{(size < SeedArticle.MessagePackLz4Bytes ? "PASS" : "MISS")} Binary, without general-purpose compression, is smaller than " +
            $"the seed's MessagePack + LZ4: {Mb(size)} against the seed's published {Mb(SeedArticle.MessagePackLz4Bytes)} " +
            $"({Ratio(seedRatio)} smaller; LZ4 cannot be run here, so this compares with the article's figure).";

        if (compressed?.SizeBytes is { } compressedBytes)
        {
            yield return $"{(size < compressedBytes ? "PASS" : "MISS")} (beyond the target) Binary is also smaller than this run's " +
                $"MessagePack + Brotli stand-in: {Mb(size)} against {Mb(compressedBytes)} ({Ratio(compressedBytes / (double)size.Value)}).";
        }
    }

    private static string StreamingAllocation(MeasuredRow row)
    {
        var target = $"{row.Name} serialization allocates at most 1 MB";
        if (row.SerializeAllocatedBytes is not { } allocated)
        {
            return $"SKIP {target}: not measured.";
        }

        var pass = allocated <= StreamingAllocationBudget;
        var over = pass ? string.Empty : $", {Ratio(allocated / (double)StreamingAllocationBudget)} the budget";
        return string.Create(CultureInfo.InvariantCulture, $"{(pass ? "PASS" : "MISS")} {target}: {allocated:N0} bytes{over}.");
    }

    private static string Ms(double? ms) => string.Create(CultureInfo.InvariantCulture, $"{ms:F1} ms");

    private static string Mb(long? bytes) => string.Create(CultureInfo.InvariantCulture, $"{bytes / (double)(1 << 20):F2} MB");

    private static string Ratio(double ratio) => string.Create(CultureInfo.InvariantCulture, $"{ratio:F2}x");

    private static string Percent(double fraction) => string.Create(CultureInfo.InvariantCulture, $"{fraction * 100:F0} %");
}
