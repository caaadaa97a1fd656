namespace WebSerialization.Benchmarks.Reporting;

/// <summary>
/// The benchmark targets (docs/performance.md), judged on ratios within one run: PASS, MISS (by how much, and how much
/// of each row's time is above the floor row's, the part a format can change) or SKIP (a row it needs was not measured).
/// </summary>
public static class TargetVerdicts
{
    /// <summary>The most a streaming serialization of the whole organization may allocate: 1 MB (2^20 bytes).</summary>
    public const long StreamingAllocationBudget = 1 << 20;

    /// <summary>How many times faster than the seed's BinaryWriter/BinaryReader our binary format must be.</summary>
    public const double SeedSpeedup = 2.0;

    public static IReadOnlyList<string> Judge(IReadOnlyList<RowResult> rows)
    {
        var binary = rows.Where(row => row.Serializer.Family == ContenderFamily.Binary).ToList();
        var others = rows.Where(row => row.Serializer.Family is not ContenderFamily.Binary and not ContenderFamily.Floor).ToList();
        var seed = rows.FirstOrDefault(row => row.Serializer.Family == ContenderFamily.SeedBinaryWriter);
        var compressed = rows.FirstOrDefault(row => row.Serializer.Family == ContenderFamily.SeedCompressedMessagePack);
        var floor = rows.FirstOrDefault(row => row.Serializer.Family == ContenderFamily.Floor);
        Operation[] operations = [new("serialize", row => row.SerializeMs), new("deserialize", row => row.DeserializeMs)];
        return
        [
            .. operations.Select(operation => Fastest(operation, binary, others, floor)),
            .. operations.Select(operation => FasterThanSeed(operation, binary, seed, floor)),
            Smaller(binary, compressed),
            .. rows.Where(row => row.Serializer.IsStreaming)
                .Select(row => WithinBudget($"{row.Name} serialization allocates at most 1 MB", row.SerializeAllocatedBytes)),
            .. rows.Where(row => row.Serializer.IsStreaming)
                .Select(row => WithinBudget($"{row.Name} summarizes a payload allocating at most 1 MB", row.SummarizeAllocatedBytes)),
            AsFastAsLibrary(rows, "protobuf stream", "protobuf-net Stream", operations[1]),
        ];
    }

    private static string Fastest(Operation operation, List<RowResult> binary, List<RowResult> others, RowResult? floor)
    {
        var target = $"Binary is the fastest row to {operation.Name} (the floor row is not a format and is left out)";
        var measured = others.Where(row => operation.Time(row) is not null).ToList();
        if (binary.Count == 0 || binary.Any(row => operation.Time(row) is null) || measured.Count == 0)
        {
            return Skip(target);
        }

        var slowest = binary.MaxBy(row => operation.Time(row))!;
        var best = measured.MinBy(row => operation.Time(row))!;
        var (slowestMs, bestMs) = (operation.Time(slowest)!.Value, operation.Time(best)!.Value);
        return slowestMs < bestMs
            ? $"PASS {target}: {slowest.Name} {Ms(slowestMs)}; the fastest other row, {best.Name}, {Ms(bestMs)} ({Ratio(bestMs / slowestMs)})."
            : $"MISS {target}: {slowest.Name} {Ms(slowestMs)} is {Ms(slowestMs - bestMs)} ({Ratio(slowestMs / bestMs)}) slower than {best.Name} {Ms(bestMs)}.{AboveFloor(operation, [slowest, best], floor)}";
    }

    private static string FasterThanSeed(Operation operation, List<RowResult> binary, RowResult? seed, RowResult? floor)
    {
        var target = $"Binary is at least {SeedSpeedup:0}x faster than the seed's BinaryWriter/BinaryReader to {operation.Name}";
        if (seed is null || operation.Time(seed) is not { } seedMs || binary.Count == 0 || binary.Any(row => operation.Time(row) is null))
        {
            return Skip(target);
        }

        var slowest = binary.MaxBy(row => operation.Time(row))!;
        var slowestMs = operation.Time(slowest)!.Value;
        var needed = seedMs / SeedSpeedup;
        if (slowestMs <= needed)
        {
            return $"PASS {target}: seed {Ms(seedMs)}, {slowest.Name} {Ms(slowestMs)} ({Ratio(seedMs / slowestMs)}).";
        }

        var belowFloor = floor is not null && operation.Time(floor) is { } floorMs && needed < floorMs
            ? $" That is {Ms(floorMs - needed)} below the floor row's {Ms(floorMs)}, what producing these objects costs with no format at all."
            : string.Empty;
        return $"MISS {target}: seed {Ms(seedMs)}, {slowest.Name} {Ms(slowestMs)} ({Ratio(seedMs / slowestMs)}); " +
            $"{SeedSpeedup:0}x needs {Ms(needed)}, {Ms(slowestMs - needed)} less.{belowFloor}{AboveFloor(operation, [slowest, seed], floor)}";
    }

    // Each row's time above the floor row's: the object model's own cost taken away, what is left is the format's.
    private static string AboveFloor(Operation operation, IEnumerable<RowResult> rows, RowResult? floor) =>
        floor is not null && operation.Time(floor) is { } floorMs
            ? $" Above the floor row ({Ms(floorMs)}): {string.Join(", ", rows.Select(row => $"{row.Name} {Ms(operation.Time(row)!.Value - floorMs)}"))}."
            : string.Empty;

    private static string Smaller(List<RowResult> binary, RowResult? compressed)
    {
        var target = $"Binary, without general-purpose compression, is smaller than {compressed?.Name ?? "MessagePack with LZ4"}";
        if (binary.FirstOrDefault()?.SizeBytes is not { } size || compressed?.SizeBytes is not { } compressedSize)
        {
            return Skip(target);
        }

        var sizes = $"{Mb(size)} against {Mb(compressedSize)}";
        return size < compressedSize
            ? $"PASS {target}: {sizes} ({Ratio(compressedSize / (double)size)} smaller)."
            : $"MISS {target}: {sizes}, {Mb(size - compressedSize)} ({Ratio(size / (double)compressedSize)}) larger.";
    }

    private static string WithinBudget(string target, long? allocated)
    {
        if (allocated is null)
        {
            return $"SKIP {target}: not measured.";
        }

        var bytes = string.Create(CultureInfo.InvariantCulture, $"{allocated:N0} bytes");
        return allocated <= StreamingAllocationBudget
            ? $"PASS {target}: {bytes}."
            : $"MISS {target}: {bytes}, {Ratio(allocated.Value / (double)StreamingAllocationBudget)} the budget.";
    }

    private static string AsFastAsLibrary(IReadOnlyList<RowResult> rows, string ours, string library, Operation operation)
    {
        var target = $"{ours} is at least as fast as {library} to {operation.Name}";
        var (our, their) = (rows.FirstOrDefault(row => row.Name == ours), rows.FirstOrDefault(row => row.Name == library));
        if (our is null || their is null || operation.Time(our) is not { } ourMs || operation.Time(their) is not { } theirMs)
        {
            return Skip(target);
        }

        return ourMs <= theirMs
            ? $"PASS {target}: {Ms(ourMs)} against {Ms(theirMs)} ({Ratio(theirMs / ourMs)})."
            : $"MISS {target}: {Ms(ourMs)} against {Ms(theirMs)}, {Ms(ourMs - theirMs)} ({Ratio(ourMs / theirMs)}) slower.";
    }

    private static string Skip(string target) => $"SKIP {target}: not every row was measured.";

    // Whole milliseconds as the seed prints them; a decimal for the short operations of small runs.
    private static string Ms(double ms) => ms.ToString(Math.Abs(ms) >= 100 ? "F0" : "F1", CultureInfo.InvariantCulture) + " ms";

    private static string Mb(long bytes) => string.Create(CultureInfo.InvariantCulture, $"{bytes / (double)(1 << 20):F2} MB");

    private static string Ratio(double ratio) => string.Create(CultureInfo.InvariantCulture, $"{ratio:F2}x");

    private sealed record Operation(string Name, Func<RowResult, double?> Time);
}
