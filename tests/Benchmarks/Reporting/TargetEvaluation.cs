using System.Globalization;
using WebSerialization.Benchmarks.Contenders;

namespace WebSerialization.Benchmarks.Reporting;

/// <summary>
/// The issue's targets, as ratios within the run. Each gives a PASS, MISS or SKIP (a row it needs was filtered out
/// or failed); a MISS says by how much and, where the run can show it, what stands in the way, measured against the
/// object model's floor row of the same run.
/// </summary>
public static class TargetEvaluation
{
    /// <summary>The most a streaming serialization of the whole organization may allocate: 1 MB (2^20 bytes).</summary>
    public const long StreamingAllocationBudget = 1 << 20;

    /// <summary>How many times faster than the seed's BinaryWriter/BinaryReader our binary format must be.</summary>
    public const double SeedSpeedup = 2.0;

    public static IReadOnlyList<TargetResult> Evaluate(BenchmarkResults results)
    {
        ArgumentNullException.ThrowIfNull(results);
        var binary = results.Rows.Where(row => row.Family == ContenderFamily.Binary).ToList();
        var others = results.Rows.Where(row => row.Family is not ContenderFamily.Binary and not ContenderFamily.Floor).ToList();
        var seed = results.Rows.FirstOrDefault(row => row.Family == ContenderFamily.SeedBinaryWriter);
        var floor = results.Rows.FirstOrDefault(row => row.Family == ContenderFamily.Floor);
        var serialize = new Operation("serialize", row => row.SerializeMs, ProfileNotes.BinaryEncoder);
        var deserialize = new Operation("deserialize", row => row.DeserializeMs, ProfileNotes.BinaryDecoder);
        var targets = new List<TargetResult>
        {
            Fastest(serialize, binary, others, floor),
            Fastest(deserialize, binary, others, floor),
            FasterThanSeed(serialize, binary, seed, floor),
            FasterThanSeed(deserialize, binary, seed, floor),
        };
        targets.Add(Smaller(binary, results.Rows.FirstOrDefault(row => row.Family == ContenderFamily.SeedCompressedMessagePack)));
        targets.AddRange(results.Rows.Where(row => row.Serializer.IsStreaming).Select(StreamingAllocation));
        return targets;
    }

    private static TargetResult Fastest(Operation operation, List<MeasuredRow> binary, List<MeasuredRow> others, MeasuredRow? floor)
    {
        var target = $"Binary is the fastest row to {operation.Name} (the floor row is not a format and is left out)";
        var measured = others.Where(row => operation.Time(row) is not null).ToList();
        if (binary.Count == 0 || binary.Any(row => operation.Time(row) is null) || measured.Count == 0)
        {
            return new TargetResult("SKIP", $"{target}: not every row was measured.");
        }

        var best = measured.MinBy(row => operation.Time(row))!;
        var slowest = binary.MaxBy(row => operation.Time(row))!;
        var bestMs = operation.Time(best)!.Value;
        var slowestMs = operation.Time(slowest)!.Value;
        var each = string.Join(", ", binary.Select(row => $"{row.Name} {Ms(operation.Time(row))}"));
        if (slowestMs < bestMs)
        {
            return new TargetResult("PASS", $"{target}: {each}; the fastest other row, {best.Name}, takes {Ratio(bestMs / slowestMs)} as long ({Ms(bestMs)}).");
        }

        return new TargetResult(
            "MISS",
            $"{target}: {each}; {best.Name} is faster at {Ms(bestMs)}: {slowest.Name} takes {Ratio(slowestMs / bestMs)} its time, {Ms(slowestMs - bestMs)} more. {LikeForLike(operation, binary, measured)}",
            AboveFloor(operation, [slowest, best], floor));
    }

    // The target compares every binary row with every other row; this says how each binary row stands among the rows
    // that do the same work (streaming, or to and from a byte[]), so a miss across kinds is not read as one within.
    private static string LikeForLike(Operation operation, List<MeasuredRow> binary, List<MeasuredRow> others)
    {
        var verdicts = binary.Select(row =>
        {
            var kind = row.Serializer.IsStreaming ? "streaming" : "byte[]";
            var peer = others.Where(other => other.Serializer.IsStreaming == row.Serializer.IsStreaming).MinBy(other => operation.Time(other));
            if (peer is null)
            {
                return $"{row.Name} has no other {kind} row to compare with";
            }

            var faster = operation.Time(row) < operation.Time(peer);
            return $"{row.Name} is {(faster ? "the fastest" : "not the fastest")} {kind} row (the fastest other, {peer.Name}, {Ms(operation.Time(peer))})";
        });
        return $"Like for like: {string.Join("; ", verdicts)}.";
    }

    private static TargetResult FasterThanSeed(Operation operation, List<MeasuredRow> binary, MeasuredRow? seed, MeasuredRow? floor)
    {
        var target = $"Binary is at least {SeedSpeedup:0}x faster than the seed's BinaryWriter/BinaryReader to {operation.Name}";
        if (seed is null || operation.Time(seed) is null || binary.Count == 0 || binary.Any(row => operation.Time(row) is null))
        {
            return new TargetResult("SKIP", $"{target}: not every row was measured.");
        }

        var seedMs = operation.Time(seed)!.Value;
        var ratios = binary.Select(row => (Row: row, Ratio: seedMs / operation.Time(row)!.Value)).ToList();
        var each = string.Join(", ", ratios.Select(r => $"{r.Row.Name} {Ms(operation.Time(r.Row))} ({Ratio(r.Ratio)})"));
        if (ratios.All(r => r.Ratio >= SeedSpeedup))
        {
            return new TargetResult("PASS", $"{target}: seed {Ms(seedMs)}; {each}.");
        }

        var worst = ratios.MinBy(r => r.Ratio);
        var needed = seedMs / SeedSpeedup;
        var obstacle = AboveFloor(operation, [worst.Row, seed], floor);
        if (floor is not null && operation.Time(floor) is { } floorMs && needed < floorMs)
        {
            var seedWork = seedMs - floorMs;
            obstacle = $"{SeedSpeedup:0}x the seed would be {Ms(needed)}, {Ms(floorMs - needed)} below the floor row's {Ms(floorMs)}, which is what " +
                $"producing these objects costs with no format at all; " +
                (seedWork <= 0 ? "the seed's approach measured at that floor itself" : $"the seed's own work is only {Ms(seedWork)} above it") +
                $", so no format that produces the same objects can be {SeedSpeedup:0}x faster than it. " + obstacle;
        }

        return new TargetResult(
            "MISS",
            $"{target}: seed {Ms(seedMs)}; {each}; short of {SeedSpeedup:0}x by {Percent(1 - (worst.Ratio / SeedSpeedup))} ({worst.Row.Name} would need {Ms(needed)}).",
            obstacle);
    }

    // Splits each row's time into the floor (what the object model costs) and the row's own work above it.
    private static string AboveFloor(Operation operation, IEnumerable<MeasuredRow> rows, MeasuredRow? floor)
    {
        if (floor is null || operation.Time(floor) is not { } floorMs)
        {
            return operation.Profile;
        }

        var parts = rows.Select(row => operation.Time(row)!.Value - floorMs is var above && above > 0
            ? $"{row.Name} {Ms(above)}"
            : $"{row.Name} none (it measured {Ms(-above)} under the floor: noise)");
        return $"Time above the floor row ({Ms(floorMs)}, the object model's own cost): {string.Join("; ", parts)}. {operation.Profile}";
    }

    private static TargetResult Smaller(List<MeasuredRow> binary, MeasuredRow? compressed)
    {
        const string Target = "Binary, without general-purpose compression, is smaller than MessagePack with LZ4";
        var size = binary.Select(row => row.SizeBytes).FirstOrDefault(bytes => bytes is not null);
        if (size is null)
        {
            return new TargetResult("SKIP", $"{Target}: no Binary size.");
        }

        var published = $"the seed's published {Mb(SeedArticle.MessagePackLz4Bytes)} for the same data shape " +
            $"({Ratio(SeedArticle.MessagePackLz4Bytes / (double)size.Value)} smaller)";
        if (compressed?.SizeBytes is not { } compressedBytes)
        {
            // A subset run without the LZ4 row: the article's figure is all there is to compare with.
            var text = $"{Target}: {Mb(size)} against {published}; this run has no MessagePack-CSharp+LZ4 row.";
            return new TargetResult(size < SeedArticle.MessagePackLz4Bytes ? "PASS" : "MISS", text);
        }

        var measured = $"{Target}: {Mb(size)} against this run's {compressed.Name} {Mb(compressedBytes)}, " +
            $"{Ratio(compressedBytes / (double)size.Value)} smaller; and against {published}.";
        return new TargetResult(size < compressedBytes && size < SeedArticle.MessagePackLz4Bytes ? "PASS" : "MISS", measured);
    }

    private static TargetResult StreamingAllocation(MeasuredRow row)
    {
        var target = $"{row.Name} serialization allocates at most 1 MB";
        if (row.SerializeAllocatedBytes is not { } allocated)
        {
            return new TargetResult("SKIP", $"{target}: not measured.");
        }

        var text = string.Create(CultureInfo.InvariantCulture, $"{target}: {allocated:N0} bytes");
        return allocated <= StreamingAllocationBudget
            ? new TargetResult("PASS", $"{text}.")
            : new TargetResult("MISS", $"{text}, {Ratio(allocated / (double)StreamingAllocationBudget)} the budget.");
    }

    // Whole milliseconds as the seed prints them; a decimal for the short operations of small runs.
    private static string Ms(double? ms) => (ms ?? double.NaN).ToString(Math.Abs(ms ?? 0) >= 100 ? "F0" : "F1", CultureInfo.InvariantCulture) + " ms";

    private static string Mb(long? bytes) => string.Create(CultureInfo.InvariantCulture, $"{bytes / (double)(1 << 20):F2} MB");

    private static string Ratio(double ratio) => string.Create(CultureInfo.InvariantCulture, $"{ratio:F2}x");

    private static string Percent(double fraction) => string.Create(CultureInfo.InvariantCulture, $"{fraction * 100:F0} %");

    private sealed record Operation(string Name, Func<MeasuredRow, double?> Time, string Profile);
}
