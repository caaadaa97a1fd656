namespace WebSerialization.Load.Scenarios;

/// <summary>
/// The downloads with <c>Accept-Encoding: gzip</c> and <c>br</c> of every format, named
/// <c>compressed-download-json-br-1000000</c> and so on, and run only when <c>--scenarios</c> names them, so that the
/// bytes on the wire and the server's cost of compressing them are measured beside the plain <c>download-...</c> ones.
/// </summary>
public static class CompressedDownloads
{
    /// <summary>The encodings asked for, as <c>Accept-Encoding</c> spells them; the response must carry the same.</summary>
    public static IReadOnlyList<string> Encodings { get; } = ["gzip", "br"];

    /// <summary>Every format's downloads in each encoding, for each of <paramref name="counts"/> (in order).</summary>
    public static IEnumerable<LoadScenario> For(IReadOnlyList<int> counts) =>
        from count in counts
        from format in WireFormat.All
        from encoding in Encodings
        select HttpScenarios.CompressedDownload(format, encoding, count);
}
