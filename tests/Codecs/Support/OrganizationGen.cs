using System.Globalization;
using CsCheck;

namespace WebSerialization.Codecs.Tests.Support;

/// <summary>
/// The one generator of random organizations. It reaches every edge the wire formats have: null against empty tags,
/// strings and member lists; no members at all; long strings (past MessagePack's str16 and protobuf's two-byte
/// lengths) and non-ASCII ones, surrogate pairs and lone surrogates; NaN with payloads, -0.0, infinities and
/// subnormals; the extremes of int and long; neighbouring members whose texts share stems and whose ids and times step.
/// </summary>
internal static class OrganizationGen
{
    private static readonly string[] Fragments =
    [
        "a", "Z", "0", " ", "é", "ß", "中文", "עברית", "😀", "👩‍👩‍👧", "\U0010FFFF", "\U00010000", "\uFFFD", "e\u0301",
        "\"", "\\", "/", "\n", "\t", "\u0000", "\u001F", "\u007F", "\u0080", "\u07FF", "\u0800", "\u00A0", "\uFEFF",
        "\u2028", "</script>", "𝄞", "١٢٣", "007", "TestName",
    ];

    /// <summary>The bits of every double an exact format must keep: NaN payloads and signs, infinities, both zeros, subnormals, limits.</summary>
    internal static readonly long[] DoubleBits =
    [
        0x7FF8000000000000, // the canonical quiet NaN
        unchecked((long)0xFFF8000000000000), // .NET's double.NaN (sign bit set)
        0x7FF0000000000001, // a signalling NaN
        0x7FFFFFFFFFFFFFFF, // NaN with every payload bit set
        unchecked((long)0xFFFFFFFFFFFFFFFF), // the same with the sign bit set
        unchecked((long)0xFFF0000000000001), // negative signalling NaN
        0x7FF4000000000000, // another signalling NaN payload
        0x7FF0000000000000, // +infinity
        unchecked((long)0xFFF0000000000000), // -infinity
        0, // +0.0
        unchecked((long)0x8000000000000000), // -0.0
        1, // the smallest subnormal
        unchecked((long)0x8000000000000001), // its negative
        0x000FFFFFFFFFFFFF, // the largest subnormal
        0x7FEFFFFFFFFFFFFF, // double.MaxValue
        unchecked((long)0xFFEFFFFFFFFFFFFF), // double.MinValue
        0x43E0000000000000, // 2^63: integral but outside int64
        unchecked((long)0xC3E0000000000000), // -2^63: integral and exactly long.MinValue
        0x4340000000000000, // 2^53
        0x4340000000000001, // 2^53 + 2
        0x43F0000000000000, // 2^64
        0x3FE0000000000000, // 0.5
        0x3FB999999999999A, // 0.1
        0x444B1AE4D6E2EF50, // 1e21, where shortest round-trip text switches to an exponent
    ];

    public static readonly Gen<int> Int32 = Gen.Frequency(
        (1, Gen.OneOf(0, 1, -1, int.MinValue, int.MaxValue, int.MinValue + 1, int.MaxValue - 1, 127, 128, -32, -33, -128, -129, 255, 256, -32_768, -32_769, 65_535, 65_536)),
        (2, Gen.Int));

    public static readonly Gen<long> Int64 = Gen.Frequency(
        (1, Gen.OneOf(0L, 1L, -1L, long.MinValue, long.MaxValue, int.MinValue, int.MaxValue, 127L, 128L, int.MinValue - 1L, uint.MaxValue, 1L + uint.MaxValue, 1_702_247_304_000L)),
        (2, Gen.Long));

    public static readonly Gen<double> Double = Gen.Frequency(
        (2, Gen.Int[0, DoubleBits.Length - 1].Select(index => BitConverter.Int64BitsToDouble(DoubleBits[index]))),
        (1, Gen.Long.Select(BitConverter.Int64BitsToDouble)),
        (1, Gen.Long.Select(value => (double)value)),
        (1, Gen.Double));

    // Text that every format round-trips exactly: no lone surrogate and no string over the default decode limits;
    // lengths either side of MessagePack's fixstr and str8 edges.
    private static readonly Gen<string?> WellFormedText = Gen.Frequency(
        (40, Gen.Const((string?)null)),
        (40, Gen.Const((string?)string.Empty)),
        (240, Gen.Int[0, Fragments.Length - 1].Array[1, 8].Select(picks => (string?)string.Concat(picks.Select(pick => Fragments[pick])))),
        (40, Gen.String[Gen.Char, 1, 40].Select(WellFormed)),
        (4, Gen.String[Gen.Char, 200, 3000].Select(WellFormed)),
        (6, Gen.Select(Gen.OneOf(Gen.Int[29, 34], Gen.Int[250, 262]), Gen.Bool, (length, accent) => (string?)(new string('x', length) + (accent ? "é" : string.Empty)))));

    /// <summary>
    /// Text of every kind. A long string (one in about 350, so in about a fifth of the organizations) and a lone
    /// surrogate (not valid Unicode) are rare: long ones make a property slow at one-byte chunks.
    /// </summary>
    public static readonly Gen<string?> Text = Gen.Frequency(
        (360, WellFormedText),
        (40, Gen.String[Gen.Char, 1, 40].Select(text => (string?)text)),
        (1, Gen.Select(Gen.Int[0, Fragments.Length - 1], Gen.Int[100, 70_000], (pick, length) => (string?)Repeat(Fragments[pick] + "x", length))),
        (4, Gen.OneOf("\uD800", "a\uDFFFb", "\uDBFF\uDBFF", "x\uD83D").Select(text => (string?)text)));

    public static readonly Gen<Member> Member = MemberOf(Text);

    /// <summary>Null, empty, or up to six tags; a tag is never null (protobuf-net and JSON cannot carry one).</summary>
    public static readonly Gen<string[]?> Tags = Gen.Frequency(
        (1, Gen.Const((string[]?)null)),
        (1, Gen.Const<string[]?>(Array.Empty<string>())),
        (4, TagsOf(Text)));

    public static readonly Gen<List<Member>?> Members = Gen.Frequency(
        (1, Gen.Const((List<Member>?)null)),
        (1, Gen.Const<List<Member>?>([])),
        (4, Member.List[1, 40].Select(members => (List<Member>?)members)),
        (2, Gen.Select(Member.List[1, 40], Gen.Int, (members, seed) => (List<Member>?)Neighbours(members, seed))),
        (1, Member.List[100, 300].Select(members => (List<Member>?)members)));

    public static readonly Gen<Organization> Organization =
        Gen.Select(Int32, Tags, Members, (id, tags, members) => new Organization { Id = id, Tags = tags, Members = members });

    /// <summary>
    /// The organization a seed picks, with exactly <paramref name="memberCount"/> members (half of them neighbours),
    /// tags that are never null, and text that every format round-trips: for tests that compare decoded with sent.
    /// </summary>
    public static Organization Random(int seed, int memberCount)
    {
        var gen = Gen.Select(Int32, TagsOf(WellFormedText), MemberOf(WellFormedText).List[memberCount], Gen.Int, (id, tags, members, neighbourSeed) =>
            new Organization { Id = id, Tags = tags, Members = Neighbours(members, neighbourSeed) });
        return gen.Generate(new PCG((uint)seed, (ulong)seed), null, out _);
    }

    /// <summary>The organization a seed picks: null or empty tags and members as well, up to 40 members, text every format round-trips.</summary>
    public static Organization Random(int seed)
    {
        var members = Gen.Frequency(
            (1, Gen.Const((List<Member>?)null)),
            (1, Gen.Const<List<Member>?>([])),
            (8, Gen.Select(MemberOf(WellFormedText).List[1, 40], Gen.Int, (list, neighbourSeed) => (List<Member>?)Neighbours(list, neighbourSeed))));
        var tags = Gen.Frequency((1, Gen.Const((string[]?)null)), (1, Gen.Const<string[]?>(Array.Empty<string>())), (8, TagsOf(WellFormedText)));
        var gen = Gen.Select(Int32, tags, members, (id, tagList, memberList) => new Organization { Id = id, Tags = tagList, Members = memberList });
        return gen.Generate(new PCG((uint)seed, (ulong)seed), null, out _);
    }

    /// <summary>One member per extreme: the limits of every integer, every special double, empty and null strings.</summary>
    public static Organization Extremes() => new()
    {
        Id = int.MinValue,
        Tags = [string.Empty, "😀", "TestTag0"],
        Members =
        [
            new() { Id = int.MinValue, Name = string.Empty, Description = null, Address = "\U0010FFFF", Value = -0.0, UpdateTime = long.MinValue },
            new() { Id = int.MaxValue, Name = null, Description = string.Empty, Address = null, Value = double.NaN, UpdateTime = long.MaxValue },
            new() { Id = 0, Name = "\uFFFD", Value = double.PositiveInfinity, UpdateTime = 0 },
            new() { Id = -1, Name = "x", Value = double.NegativeInfinity, UpdateTime = -1 },
            new() { Id = 1, Value = double.Epsilon, UpdateTime = 1 },
            new() { Id = 2, Value = double.MaxValue },
            new() { Id = 3, Value = double.MinValue },
            new() { Id = 4, Value = 0.0 },
        ],
    };

    /// <summary>
    /// An organization by name, so that each is a test case of its own: <c>"random N"</c> (<see cref="Random(int)"/>),
    /// <c>"random N of M"</c> (<see cref="Random(int, int)"/>), <c>"seed N"</c> (the seed's first N members),
    /// <c>"extremes"</c>, <c>"empty lists"</c>, <c>"nulls"</c>, and <c>"long texts"</c> (texts past every one- and
    /// two-byte length prefix, and lone surrogates, which every encoder writes as U+FFFD).
    /// </summary>
    public static Organization Named(string name) => name.Split(' ') switch
    {
        ["random", var seed] => Random(Number(seed)),
        ["random", var seed, "of", var count] => Random(Number(seed), Number(count)),
        ["seed", var count] => OrganizationGenerator.Create(Number(count)),
        _ => name switch
        {
            "extremes" => Extremes(),
            "empty lists" => new Organization { Id = 5, Tags = [], Members = [] },
            "nulls" => new Organization(),
            "long texts" => new Organization
            {
                Id = 7,
                Tags = [new string('t', 300), null!, "\uD800"],
                Members =
                [
                    new() { Id = 1, Name = new string('a', 127), Description = new string('b', 128), Address = "c" },
                    new() { Id = 2, Name = new string('é', 70), Description = "\uDC00x\uD83D", Address = string.Concat(Enumerable.Repeat("😀", 5000)) },
                    new() { Id = -3, Name = new string('z', 20_000), Value = -0.0, UpdateTime = -1 },
                ],
            },
            _ => throw new ArgumentOutOfRangeException(nameof(name), name, "No such organization."),
        },
    };

    private static int Number(string text) => int.Parse(text, CultureInfo.InvariantCulture);

    // A UTF-16 string made valid Unicode: every lone surrogate becomes U+FFFD.
    private static string? WellFormed(string text) => Encoding.UTF8.GetString(Encoding.UTF8.GetBytes(text));

    private static Gen<Member> MemberOf(Gen<string?> text) =>
        Gen.Select(Int32, text, text, text, Double, Int64, (id, name, description, address, value, time) => new Member
        {
            Id = id,
            Name = name,
            Description = description,
            Address = address,
            Value = value,
            UpdateTime = time,
        });

    private static Gen<string[]?> TagsOf(Gen<string?> text) => text.Select(tag => tag ?? string.Empty).Array[1, 6].Select(tags => (string[]?)tags);

    /// <summary>
    /// Makes some members follow the one before: the next id, a time a day or less away, and texts that repeat, cut,
    /// extend or renumber the previous text (even between the halves of a code point, never inside a surrogate pair).
    /// </summary>
    private static List<Member> Neighbours(List<Member> members, int seed)
    {
        var random = new Random(seed);
        for (var i = 1; i < members.Count; i++)
        {
            var (previous, member) = (members[i - 1], members[i]);
            if (random.Next(4) != 0)
            {
                member.Id = unchecked(previous.Id + 1);
            }

            if (random.Next(3) == 0)
            {
                member.UpdateTime = unchecked(previous.UpdateTime + random.Next(-86_400_000, 86_400_000));
            }

            member.Name = Follow(random, previous.Name, member.Name);
            member.Description = Follow(random, previous.Description, member.Description);
            member.Address = Follow(random, previous.Address, member.Address);
        }

        return members;
    }

    private static string? Follow(Random random, string? previous, string? own)
    {
        switch (previous is null ? -1 : random.Next(6))
        {
            case 0:
                return previous;
            case 1:
                var cut = random.Next(previous!.Length + 1);
                return cut > 0 && char.IsHighSurrogate(previous[cut - 1]) ? previous[..(cut - 1)] : previous[..cut];
            case 2:
                return previous + own;
            case 3:
                return previous!.TrimEnd("0123456789".ToCharArray()) + random.Next(4) switch
                {
                    0 => "0",
                    1 => "0" + random.Next(100).ToString(CultureInfo.InvariantCulture),
                    2 => random.NextInt64(0, long.MaxValue).ToString(CultureInfo.InvariantCulture) + random.Next(10),
                    _ => random.Next(1_000_000).ToString(CultureInfo.InvariantCulture),
                };
            default:
                return own;
        }
    }

    private static string Repeat(string piece, int length) =>
        string.Create(length, piece, (span, text) =>
        {
            for (var i = 0; i < span.Length; i += text.Length)
            {
                text.AsSpan(0, Math.Min(text.Length, span.Length - i)).CopyTo(span[i..]);
            }
        });
}
