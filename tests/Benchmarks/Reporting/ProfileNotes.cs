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
        "Measured 2026-11-21 with `--repeat \"Binary stream\" serialize 25`, three processes each: 36-38 ms a million " +
        "members since the writer takes kind 3 first (50 ms before, when it measured every text's common prefix to decide), " +
        "protobuf 41-42 ms. Timing the encoder alone with the texts set to null one field at a time had shown 13 ms without " +
        "texts and 11-12 ms more for each text, the kind decision being most of it. The byte[] row adds growing an " +
        "ArrayBufferWriter to the payload's size and copying it out with ToArray, which the streaming row does not do. The " +
        "seed's BinaryWriter spends its time growing its MemoryStream and collecting what that allocates.";

    /// <summary>Where the binary decoder's time goes.</summary>
    public const string BinaryDecoder =
        "Profile of 2026-11-21 (`perf record -e cpu-clock` with DOTNET_PerfMapEnabled=1 of `--repeat \"Binary stream\" " +
        "deserialize 12`): 47 % of samples in the runtime (allocating and collecting the 251 MB of members and strings) and " +
        "12 % in the kernel (page faults on fresh heap), 33 % in managed code, of which the decoder's text path " +
        "(`TryReadPresentText` 13 %, filling the string 3.7 %) and `TryReadMember` 4.8 %. Timed alone (1,000,000 members, " +
        "blocking GC, 9 runs): binary 166-190 ms, MessagePack 134-141 ms; before this session's decoder changes binary took " +
        "186-217 ms. The remaining gap is the per-text work MessagePack does not have: the kind, the prefix and the number.";
}
