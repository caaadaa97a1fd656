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
        "Measured 2026-11-21 18:28 UTC with `perf stat -e page-faults -- dotnet WebSerialization.Benchmarks.dll --repeat ROW " +
        "serialize 30`, two processes each, interleaved (medians): floor 36.1-36.2 ms, Binary stream 37.2-37.7, protobuf " +
        "stream 39.5-39.7, MessagePack stream 43.5-44.3, Binary byte[] 49.4-50.9, protobuf byte[] 46.4-47.1. Binary's " +
        "streaming writer runs about 1 ms above the floor, the cost of reading the 251 MB object graph and writing its " +
        "numbers and texts with no format at all, so no writer of these objects can be much faster. The byte[] row is that " +
        "encoding plus the exact-size array ToArray returns, and its extra 12 ms are page faults: 255,200 in 30 operations " +
        "against 90,700 for the streaming row, and `--repeat` (which counts them since) gives a median of 5,498 a call " +
        "against 4 (18:59 UTC): the 22 MB array's 4 KB pages faulted in afresh every call, about 2 us each in this VM; an " +
        "uninitialized array (GC.AllocateUninitializedArray) changed neither figure. Whether the collector hands a large " +
        "array back already committed depends on its size and the process: in the same processes protobuf's 82 MB array " +
        "did not fault (a median of 1 a call at 18:59) and cost 7-9 ms over its streaming row, the copy alone; in the full run that row " +
        "took 75.8 ms, 36 ms over its streaming row (faults not counted there). Copying 22 MB at that rate is about 2 ms, " +
        "so even with no faults the Binary byte[] row would be level with protobuf's streaming row, not ahead of it: under " +
        "the strict reading this target needs a byte[] writer faster than the other formats' writers that return nothing. " +
        "Tried and measured without gain (not kept): a member loop with its output position in a local (streaming 2-4 ms slower, byte[] 12 ms slower), an " +
        "inline vector compare of the stems instead of SequenceEqual (same minimums). The seed's BinaryWriter spends its " +
        "time growing its MemoryStream and collecting what that allocates.";

    /// <summary>Where the binary decoder's time goes.</summary>
    public const string BinaryDecoder =
        "Measured 2026-11-21 18:38 UTC with `--repeat ROW deserialize 15`, two processes each, interleaved (medians): Binary " +
        "stream 119.2-119.7 ms, Binary byte[] 125.6-125.7, MessagePack byte[] 135.7, MessagePack stream 152.3-153.3, seed " +
        "BinaryWriter 137.9-138.4, seed MessagePack+LZ4 183.6-184.2, floor 97.4-100.6: there 2x the seed would be 69 ms, a " +
        "third below the floor. Binary reads members in one loop whose state lives in locals (members whose texts are null " +
        "or kind 3, each varint from one 8-byte load), and spends 19-28 ms a million members above the floor where " +
        "MessagePack spends 35-38 and the seed's BinaryReader 37-41. What is left is mostly the object model's: `perf " +
        "record -e cpu-clock` (DOTNET_PerfMapEnabled=3) of `--repeat \"Binary byte[]\" deserialize 20` (18:41 UTC) has 64 % " +
        "of samples in the runtime (allocating and collecting 251 MB of members and strings, with the full collections " +
        "--repeat makes between operations) and 24 % in managed code, nearly all of it the member loop: varints, and " +
        "3,000,000 strings built from the previous value's stem and a number's digits.";
}
