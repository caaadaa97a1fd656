namespace WebSerialization.Benchmarks.Reporting;

/// <summary>
/// What a profile of the binary codec showed, quoted where a target is missed. These are not measured by the run
/// that prints them: each says when and how it was taken, so that a reader can take it again after the code changes
/// (tests/Benchmarks/README.md, "Profiling a row").
/// </summary>
public static class ProfileNotes
{
    /// <summary>Where the binary encoder's time goes.</summary>
    public const string BinaryEncoder =
        "Measured 2026-11-21 17:03 UTC with `--repeat ROW serialize 25`, three processes each (medians): Binary stream " +
        "38.5-49.4 ms a million members (fastest operation 36.6-37.7), protobuf stream 41.7-43.1 (39.7-40.2), MessagePack " +
        "stream 45.5-46.1; Binary byte[] 50.1-51.2; and at 17:27 UTC, two processes each: floor 36.5-36.7, Binary stream " +
        "37.4-37.4, protobuf stream 40.7-41.1. Binary's streaming writer is at the floor, the cost of reading the 251 MB " +
        "object graph and writing its numbers and texts with no format at all, so no writer of these objects can be much " +
        "faster; protobuf's is about 4 ms above it, less than one noisy process moves a median (49.4 in one of the three). " +
        "The byte[] row is the streaming work plus the one exact-size 22 MB array that ToArray allocates on the large " +
        "object heap and fills, about 12 ms: the fastest byte[] row by far, but slower than the other formats' streaming " +
        "rows, which return no array. Tried and measured without gain that day (not kept): a member loop with its output " +
        "position in a local (streaming 2-4 ms slower, byte[] 12 ms slower), an inline vector compare of the stems instead " +
        "of SequenceEqual (same minimums). The seed's BinaryWriter spends its time growing its MemoryStream and collecting " +
        "what that allocates.";

    /// <summary>Where the binary decoder's time goes.</summary>
    public const string BinaryDecoder =
        "Measured 2026-11-21 17:02 UTC with `--repeat ROW deserialize 15`, two processes each (medians): Binary stream " +
        "119.8-137.4 ms, Binary byte[] 126.7-135.9, MessagePack byte[] 137.9-141.2, MessagePack stream 165.2-171.4, seed " +
        "BinaryWriter 144.8-145.0, floor 97.1-100.5. Binary reads members in one loop whose state lives in locals (members " +
        "whose texts are null or kind 3, each varint from one 8-byte load), and spends 20-40 ms a million members above " +
        "the floor where MessagePack spends about 40; before that loop both spent about 38 and tied. What is left is mostly " +
        "the object model's: `perf record -e cpu-clock` (DOTNET_PerfMapEnabled=3) of `--repeat \"Binary byte[]\" " +
        "deserialize 20` has 64 % of samples in the runtime (allocating and collecting 251 MB of members and strings, with " +
        "the full collections --repeat makes between operations) and 23 % in managed code, nearly all of it the member " +
        "loop: varints, and 3,000,000 strings built from the previous value's stem and a number's digits.";
}
