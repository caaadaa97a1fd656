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
        "Measured 2026-11-21 15:20 UTC with `--repeat ROW serialize 25`, three processes each (medians): Binary stream " +
        "37.2-38.7 ms a million members, protobuf stream 40.8-53.6, MessagePack stream 44.9-46.4; Binary byte[] 48.8-50.6. " +
        "The byte[] row is the streaming work plus the one exact-size 22 MB array that ToArray allocates on the large object " +
        "heap and fills, about 12 ms: the fastest byte[] row by far, but slower than the other formats' streaming rows, which " +
        "return no array. The encoder itself had shown 13 ms without texts and 11-12 ms more for each text when the texts " +
        "were set to null one field at a time. The seed's BinaryWriter spends its time growing its MemoryStream and " +
        "collecting what that allocates.";

    /// <summary>Where the binary decoder's time goes.</summary>
    public const string BinaryDecoder =
        "Measured 2026-11-21 15:21 UTC with `--repeat ROW deserialize 15`, two processes each (medians): Binary byte[] " +
        "136.7-153.9 ms, MessagePack byte[] 138.9-139.2, Binary stream 140.9-142.7, MessagePack stream 171.2-175.7, seed " +
        "BinaryWriter 145.0-161.3, floor 98.1-102.2: binary and MessagePack both spend about 38 ms a million members above " +
        "the floor, so which of them ranks first in one run is decided by the run's noise (ranges of 60 ms here). " +
        "`perf record -e cpu-clock` (DOTNET_PerfMapEnabled=1) of `--repeat \"Binary stream\" deserialize 40`: 65 % of " +
        "samples in the runtime (allocating and collecting 251 MB of members and strings, with the full collections " +
        "--repeat makes between operations), 25 % in managed code: TryReadMember 14 % (the member, its varints and the kind " +
        "3 texts inlined into it), TryReadPresentText 6 %. Until that day each text also paid for a 400-byte frame " +
        "zeroed on entry, the locals of exception messages inlined into the text path.";
}
