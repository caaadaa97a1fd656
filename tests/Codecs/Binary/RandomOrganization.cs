using System.Text;
using WebSerialization.Models;

namespace WebSerialization.Codecs.Tests.Binary;

/// <summary>
/// Seeded, reproducible organizations that lean on every edge of the format: extreme ids and times, null against
/// empty, Unicode with surrogate pairs, texts that share prefixes (even half a code point) and end in digits with
/// and without leading zeros, and doubles whose bits only an exact format keeps (NaN payloads, -0.0, infinities).
/// </summary>
internal static class RandomOrganization
{
    private static readonly int[] ExtremeInts = [0, 1, -1, int.MinValue, int.MaxValue, int.MinValue + 1, int.MaxValue - 1];

    private static readonly long[] ExtremeLongs = [0, 1, -1, long.MinValue, long.MaxValue, int.MinValue, int.MaxValue, 1_702_247_304_000];

    /// <summary>The bits of every double an exact format must keep: NaN payloads and signs, infinities, both zeros, subnormals, limits.</summary>
    internal static readonly long[] DoubleBits =
    [
        0x7FF8000000000000, // the canonical quiet NaN
        unchecked((long)0xFFF8000000000000), // .NET's double.NaN (sign bit set)
        0x7FF0000000000001, // a signalling NaN
        0x7FFFFFFFFFFFFFFF, // NaN with every payload bit set
        unchecked((long)0xFFF0000000000001), // negative signalling NaN
        0x7FF4000000000000, // another signalling NaN payload
        0x7FF0000000000000, // +infinity
        unchecked((long)0xFFF0000000000000), // -infinity
        0, // +0.0
        unchecked((long)0x8000000000000000), // -0.0
        1, // the smallest subnormal
        unchecked((long)0x8000000000000001), // its negative
        0x7FEFFFFFFFFFFFFF, // double.MaxValue
        0x43E0000000000000, // 2^63: integral but outside int64
        unchecked((long)0xC3E0000000000000), // -2^63: integral and exactly long.MinValue
        0x4340000000000000, // 2^53
        0x4340000000000001, // 2^53 + 2
        0x43F0000000000000, // 2^64
        0x3FE0000000000000, // 0.5
    ];

    private static readonly string[] Fragments =
    [
        "Test", "Name", "é", "ê", "Zürich", "東京", "😀", "𝄞", "👩‍👩‍👧", "a\u0301", "שלום", "\u0000", " ", "\t", "\u00A0", "\uFEFF", "Ω", "١٢٣",
    ];

    public static Organization Create(int seed, int maxMembers = 200)
    {
        var random = new Random(seed);
        var organization = new Organization
        {
            Id = NextInt(random),
            Tags = random.Next(10) switch
            {
                0 => null,
                1 => [],
                _ => [.. Enumerable.Range(0, random.Next(1, 7)).Select(_ => NextText(random, null)!)],
            },
        };

        switch (random.Next(10))
        {
            case 0:
                organization.Members = null;
                break;
            case 1:
                organization.Members = [];
                break;
            default:
                organization.Members = CreateMembers(random, random.Next(1, maxMembers + 1));
                break;
        }

        return organization;
    }

    private static List<Member> CreateMembers(Random random, int count)
    {
        var members = new List<Member>(count);
        Member? previous = null;
        for (var i = 0; i < count; i++)
        {
            var member = new Member
            {
                Id = random.Next(4) switch
                {
                    0 => NextInt(random),
                    _ => unchecked((previous?.Id ?? NextInt(random)) + 1),
                },
                Name = NextText(random, previous?.Name),
                Description = NextText(random, previous?.Description),
                Address = NextText(random, previous?.Address),
                Value = NextDouble(random),
                UpdateTime = random.Next(3) switch
                {
                    0 => ExtremeLongs[random.Next(ExtremeLongs.Length)],
                    1 => random.NextInt64(long.MinValue, long.MaxValue),
                    _ => (previous?.UpdateTime ?? 0) + random.Next(-86_400_000, 86_400_000),
                },
            };
            members.Add(member);
            previous = member;
        }

        return members;
    }

    private static int NextInt(Random random) =>
        random.Next(2) == 0 ? ExtremeInts[random.Next(ExtremeInts.Length)] : random.Next(int.MinValue, int.MaxValue);

    private static double NextDouble(Random random) => random.Next(5) switch
    {
        0 => BitConverter.Int64BitsToDouble(DoubleBits[random.Next(DoubleBits.Length)]),
        1 => BitConverter.Int64BitsToDouble(random.NextInt64(long.MinValue, long.MaxValue)),
        2 => random.Next(int.MinValue, int.MaxValue),
        3 => random.NextInt64(long.MinValue, long.MaxValue),
        _ => random.NextDouble() * random.Next(-1000, 1000),
    };

    private static string? NextText(Random random, string? previous)
    {
        switch (random.Next(13))
        {
            case 0:
                return null;
            case 1:
                return string.Empty;
            case 2:
                return previous;
            case 3 when previous is not null:
                // Cutting between a surrogate pair would make a string that no UTF-8 format can carry.
                var cut = random.Next(previous.Length + 1);
                return cut > 0 && char.IsHighSurrogate(previous[cut - 1]) ? previous[..(cut - 1)] : previous[..cut];
            case 4 when previous is not null:
                return previous + NextPiece(random);
            case 5 when previous is not null:
                // The previous value's stem with another number: what kind 3 and the stem rules are for.
                var stem = previous.TrimEnd("0123456789".ToCharArray());
                return stem + random.Next(4) switch
                {
                    0 => "0",
                    1 => "0" + random.Next(100).ToString(System.Globalization.CultureInfo.InvariantCulture),
                    2 => random.NextInt64(0, long.MaxValue).ToString(System.Globalization.CultureInfo.InvariantCulture) + random.Next(10),
                    _ => random.Next(1_000_000).ToString(System.Globalization.CultureInfo.InvariantCulture),
                };
            default:
                var builder = new StringBuilder();
                for (var pieces = random.Next(0, 5); pieces > 0; pieces--)
                {
                    builder.Append(NextPiece(random));
                }

                return builder.ToString();
        }
    }

    private static string NextPiece(Random random) => random.Next(6) switch
    {
        0 => Fragments[random.Next(Fragments.Length)],
        1 => random.NextInt64(0, long.MaxValue).ToString(System.Globalization.CultureInfo.InvariantCulture),
        2 => new string('0', random.Next(1, 4)) + random.Next(0, 1000).ToString(System.Globalization.CultureInfo.InvariantCulture),
        3 => string.Concat(Enumerable.Range(0, random.Next(18, 26)).Select(_ => (char)('0' + random.Next(10)))),
        4 => char.ConvertFromUtf32(random.Next(2) == 0 ? random.Next(0x20, 0xD800) : random.Next(0x10000, 0x110000)),
        _ => new string((char)random.Next('a', 'z' + 1), random.Next(1, 4)),
    };
}
