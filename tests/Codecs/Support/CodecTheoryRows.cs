namespace WebSerialization.Codecs.Tests.Support;

/// <summary>The codec tests' theory rows: the formats by key, so that each format's row is a test case of its own in a listing, and the data several theories share.</summary>
internal static class CodecTheoryRows
{
    public static IEnumerable<string> FormatKeys => WireFormat.All.Select(format => format.Key);

    public static IWireFormatCodec CodecOf(string formatKey) => WireFormat.FromKey(formatKey)!.Codec;

    /// <summary>
    /// Never UTF-8: a stray continuation byte, a lead byte that starts nothing, overlong forms, an encoded surrogate, a
    /// code point past U+10FFFF, and a sequence cut short.
    /// </summary>
    public static readonly string[] InvalidUtf8 = ["FF", "80", "C0AF", "E080AF", "EDA080", "F4908080", "E282"];

    /// <summary>What byte-exact encoder tests write, by <see cref="OrganizationGen.Named"/> name.</summary>
    public static readonly string[] ByteExactOrganizations =
        ["random 1 of 300", "random 2 of 300", "random 3 of 300", "extremes", "seed 2000", "long texts"];
}
