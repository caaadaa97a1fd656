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
        "Profile of 2026-11-21 (codecs of main 9828281; `--repeat \"Binary stream\" serialize 40` under `dotnet-trace collect " +
        "--profile dotnet-sampled-thread-time`): the encoder is compute-bound and allocates nothing; `OrganizationBinaryEncoder.WriteMember` " +
        "takes 48 % of samples exclusive (the inlined prefix comparison, digit scan and flags), `PlanText` 20 %, " +
        "`WriteMultiByteVarUInt64` 12 %. The seed's BinaryWriter does almost nothing per member but copy: its time is the " +
        "MemoryStream doubling (Memmove 23 % of its samples) and collecting the 300 MB that costs.";

    /// <summary>Where the binary decoder's time goes.</summary>
    public const string BinaryDecoder =
        "Profile of 2026-11-21 (`--repeat \"Binary stream\" deserialize 12`, same tool): on the decoding thread the time sits " +
        "at the allocation sites, which are charged with the collections they trigger: `DecodeUtf8` (the strings) 17 % of " +
        "samples inclusive, `TryReadMember` (the members) 9 % exclusive; the format's own work, `TryReadPresentText` " +
        "(varints, prefix copy, number formatting), 12 % exclusive, strict UTF-8 validation about 2 %.";
}
