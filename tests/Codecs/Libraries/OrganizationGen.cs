using CsCheck;
using WebSerialization.Codecs.Tests.Binary;
using WebSerialization.Models;

namespace WebSerialization.Codecs.Tests.Libraries;

/// <summary>
/// CsCheck generators of organizations that reach every edge the wire formats have: null against empty tags, strings
/// and member lists; no members at all; long strings (past MessagePack's str16 and protobuf's two-byte lengths) and
/// non-ASCII ones, surrogate pairs and lone surrogates; NaN with payloads, -0.0, infinities and subnormals; the
/// extremes of int and long.
/// </summary>
internal static class OrganizationGen
{
    private static readonly string[] Fragments =
    [
        "a", "Z", "0", " ", "é", "ß", "中文", "עברית", "😀", "👩‍👩‍👧", "\U0010FFFF", "\U00010000", "\uFFFD", "e\u0301",
        "\"", "\\", "\n", "\t", "\u0000", "\u007F", "\u0080", "\u07FF", "\u0800", "\u2028", "TestName",
    ];

    public static readonly Gen<int> Int32 = Gen.Frequency(
        (1, Gen.OneOf(0, 1, -1, int.MinValue, int.MaxValue, 127, 128, -32, -33, 255, 256, 65_535, 65_536)),
        (2, Gen.Int));

    public static readonly Gen<long> Int64 = Gen.Frequency(
        (1, Gen.OneOf(0L, 1L, -1L, long.MinValue, long.MaxValue, int.MinValue, int.MaxValue, uint.MaxValue, 1L + uint.MaxValue)),
        (2, Gen.Long));

    public static readonly Gen<double> Double = Gen.Frequency(
        (2, Gen.Int[0, RandomOrganization.DoubleBits.Length - 1].Select(index => BitConverter.Int64BitsToDouble(RandomOrganization.DoubleBits[index]))),
        (1, Gen.Long.Select(BitConverter.Int64BitsToDouble)),
        (1, Gen.Double));

    /// <summary>
    /// Text of every kind. A long string (one in about 350, so in about a fifth of the organizations) and a lone
    /// surrogate (not valid Unicode) are rare: long ones make a property slow at one-byte chunks.
    /// </summary>
    public static readonly Gen<string?> Text = Gen.Frequency(
        (40, Gen.Const((string?)null)),
        (40, Gen.Const((string?)string.Empty)),
        (240, Gen.Int[0, Fragments.Length - 1].Array[1, 8].Select(picks => (string?)string.Concat(picks.Select(pick => Fragments[pick])))),
        (40, Gen.String[Gen.Char, 1, 40].Select(text => (string?)text)),
        (1, Gen.Select(Gen.Int[0, Fragments.Length - 1], Gen.Int[100, 70_000], (pick, length) => (string?)Repeat(Fragments[pick] + "x", length))),
        (4, Gen.OneOf("\uD800", "a\uDFFFb", "\uDBFF\uDBFF", "x\uD83D").Select(text => (string?)text)));

    public static readonly Gen<Member> Member = Gen.Select(Int32, Text, Text, Text, Double, Int64, (id, name, description, address, value, time) => new Member
    {
        Id = id,
        Name = name,
        Description = description,
        Address = address,
        Value = value,
        UpdateTime = time,
    });

    /// <summary>Null, empty, or up to six tags; a tag is never null (protobuf-net and JSON cannot carry one).</summary>
    public static readonly Gen<string[]?> Tags = Gen.Frequency(
        (1, Gen.Const((string[]?)null)),
        (1, Gen.Const<string[]?>(Array.Empty<string>())),
        (4, Text.Select(text => text ?? string.Empty).Array[1, 6].Select(tags => (string[]?)tags)));

    public static readonly Gen<List<Member>?> Members = Gen.Frequency(
        (1, Gen.Const((List<Member>?)null)),
        (1, Gen.Const<List<Member>?>([])),
        (6, Member.List[1, 40].Select(members => (List<Member>?)members)),
        (1, Member.List[100, 300].Select(members => (List<Member>?)members)));

    public static readonly Gen<Organization> Organization =
        Gen.Select(Int32, Tags, Members, (id, tags, members) => new Organization { Id = id, Tags = tags, Members = members });

    private static string Repeat(string piece, int length) =>
        string.Create(length, piece, (span, text) =>
        {
            for (var i = 0; i < span.Length; i += text.Length)
            {
                text.AsSpan(0, Math.Min(text.Length, span.Length - i)).CopyTo(span[i..]);
            }
        });
}
