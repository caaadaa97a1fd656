namespace WebSerialization.Codecs.Tests.Codecs;

/// <summary>
/// What every format's encoder promises, checked the same way for all four: a member written from a conversion's view
/// of its UTF-8 fields is the member's own bytes, nothing is allocated per member, and a format that states the member
/// count first holds the writer to it. The bytes themselves are each format's tests' job.
/// </summary>
public class OrganizationEncoderTests
{
    public static TheoryData<string> FormatsThatStateTheCountFirst => [.. WireFormat.All.Where(format => format.Codec.MemberCountComesFirst).Select(format => format.Key)];

    // A conversion's texts arrive as UTF-8 and take the encoders' byte paths (the binary encoder's digit search among
    // them); a member's as UTF-16. Every run of digits up to past the 8- and 16-unit vector loads, behind stems of 1 to
    // 4 bytes a char, then a random organization and the one with every extreme.
    [Theory]
    [EachFormat]
    public void WritesAMemberFromAViewAsFromTheMember(string formatKey)
    {
        var codec = CodecOf(formatKey);
        string[] stems = ["", "a", "x9y", "\u00e9", "Stra\u00dfe ", "\u0130", "\u0661", "\ud83d\ude00", "TestDescription", "abcdefghijklmnop"];
        var members = new List<Member>();
        foreach (var stem in stems)
        {
            for (var digits = 0; digits <= 21; digits++)
            {
                var run = string.Concat(Enumerable.Range(0, digits).Select(index => (char)('0' + ((index * 7 + digits) % 10))));
                members.Add(new Member { Id = members.Count, Name = stem + run, Description = run + stem, Address = stem + run + "5" });
            }
        }

        foreach (var organization in new[] { new Organization { Members = members }, OrganizationGen.Random(7, 100), OrganizationGen.Extremes() })
        {
            Assert.Equal(Convert.ToHexString(Encode(codec, organization)), Convert.ToHexString(EncodeFromViews(codec, organization)));
        }
    }

    [Theory]
    [EachFormat]
    public void AllocatesNothingPerMember(string formatKey)
    {
        var allocated = Allocations.EncodingAfterTheFirstBatch(CodecOf(formatKey), OrganizationGenerator.Create(64 * 158));

        Assert.True(allocated < 1024, $"Encoding 10,048 members allocated {allocated} bytes.");
    }

    // A lone surrogate, alone or next to a pair, at a text's start or end or before digits, is written as U+FFFD.
    [Theory]
    [EachFormat]
    public void WritesLoneSurrogatesAsReplacementCharacters(string formatKey)
    {
        var codec = CodecOf(formatKey);
        string[] names = ["a\uD800b", "a\uD800", "a\uD800\uDC00", "a\uD800\uD800\uDC00", "a\uD800\uD800", "\uDC00", "\uDC001", "\uDC002", "x\uD83D7"];
        var organization = new Organization
        {
            Tags = ["a\uD800b"],
            Members = [.. names.Select((name, index) => new Member { Id = index, Name = name })],
        };

        var decoded = Decode(codec, Encode(codec, organization));

        Assert.Equal("a\uFFFDb", decoded.Tags![0]);
        Assert.Equal(names.Select(name => Encoding.UTF8.GetString(Encoding.UTF8.GetBytes(name))), decoded.Members!.Select(member => member.Name));
    }

    [Theory]
    [MemberData(nameof(FormatsThatStateTheCountFirst))]
    public void RefusesToWriteMoreMembersThanTheHeaderDeclared(string formatKey)
    {
        var (encoder, output, members) = AfterTheHeader(formatKey, declaredCount: 2);

        Assert.Throws<InvalidOperationException>(() => encoder.WriteMembers(output, members));
    }

    [Theory]
    [MemberData(nameof(FormatsThatStateTheCountFirst))]
    public void RefusesToEndWithFewerMembersThanTheHeaderDeclared(string formatKey)
    {
        var (encoder, output, members) = AfterTheHeader(formatKey, declaredCount: 3);
        encoder.WriteMembers(output, members[..2]);

        Assert.Throws<InvalidOperationException>(() => encoder.WriteFooter(output));
    }

    // An encoder that has written the header of an organization of three members, declaring declaredCount of them.
    private static (IOrganizationEncoder Encoder, ArrayBufferWriter<byte> Output, Member[] Members) AfterTheHeader(string formatKey, int declaredCount)
    {
        var organization = OrganizationGenerator.Create(3);
        var encoder = CodecOf(formatKey).CreateEncoder();
        var output = new ArrayBufferWriter<byte>();
        encoder.WriteHeader(output, organization, declaredCount);
        return (encoder, output, [.. organization.Members!]);
    }
}
