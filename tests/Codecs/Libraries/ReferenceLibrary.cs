using MessagePack;
using ProtoBuf;

namespace WebSerialization.Codecs.Tests.Libraries;

/// <summary>
/// A library that is the reference for one of our codecs (<paramref name="Codec"/>), and the documented differences
/// between the two (docs/libraries.md), each as a function of the organization, so that a test asserts exactly those
/// and no others: <paramref name="WrittenAs"/> is the organization whose bytes, as our encoder writes them, are the
/// library's bytes (the same instance wherever the library writes what we write), and <paramref name="LostInFormat"/>
/// what the format cannot say.
/// </summary>
internal sealed record ReferenceLibrary(
    string Name,
    IWireFormatCodec Codec,
    Func<Organization, byte[]> Serialize,
    Func<byte[], Organization> Deserialize,
    Func<Organization, Organization> WrittenAs,
    Func<Organization, Organization> LostInFormat)
{
    /// <summary>MessagePack-CSharp with <see cref="MessagePackSerializerOptions.Standard"/>: no difference at all.</summary>
    public static readonly ReferenceLibrary MessagePackCSharp = new(
        "MessagePack-CSharp",
        MessagePackCodec.Instance,
        organization => MessagePackSerializer.Serialize(organization, MessagePackSerializerOptions.Standard),
        bytes => MessagePackSerializer.Deserialize<Organization>(bytes, MessagePackSerializerOptions.Standard),
        WrittenAs: organization => organization,
        LostInFormat: organization => organization);

    /// <summary>
    /// protobuf-net: proto3 cannot carry an empty list (both sides write nothing, and both read nothing as null), and
    /// protobuf-net leaves out a Value of -0.0 as if it were the default 0.0, where the proto3 specification and our
    /// encoder write it.
    /// </summary>
    public static readonly ReferenceLibrary ProtobufNet = new(
        "protobuf-net",
        ProtobufCodec.Instance,
        organization =>
        {
            using var stream = new MemoryStream();
            Serializer.Serialize(stream, organization);
            return stream.ToArray();
        },
        bytes => Serializer.Deserialize<Organization>(new MemoryStream(bytes)),
        WrittenAs: NegativeZeroAsZero,
        LostInFormat: organization => AsDecoded(WireFormat.Protobuf, organization));

    public static TheoryData<string> Names => [MessagePackCSharp.Name, ProtobufNet.Name];

    public static ReferenceLibrary Named(string name) => name == MessagePackCSharp.Name ? MessagePackCSharp : ProtobufNet;

    /// <summary>
    /// What either side reads back from a body that <paramref name="organization"/> was written to: every string as
    /// UTF-8 carries it (a lone surrogate becomes U+FFFD in every encoder here), and what the format cannot say lost.
    /// </summary>
    public Organization ReadBack(Organization organization) => LostInFormat(Map(organization, tag => Utf8(tag)!, member => With(member, Utf8, member.Value)));

    public override string ToString() => Name;

    private static Organization NegativeZeroAsZero(Organization organization) =>
        organization.Members?.Any(member => IsNegativeZero(member.Value)) == true
            ? Map(organization, tag => tag, member => With(member, text => text, IsNegativeZero(member.Value) ? 0.0 : member.Value))
            : organization;

    private static bool IsNegativeZero(double value) => BitConverter.DoubleToInt64Bits(value) == BitConverter.DoubleToInt64Bits(-0.0);

    private static Member With(Member member, Func<string?, string?> text, double value) => new()
    {
        Id = member.Id,
        Name = text(member.Name),
        Description = text(member.Description),
        Address = text(member.Address),
        Value = value,
        UpdateTime = member.UpdateTime,
    };

    private static Organization Map(Organization organization, Func<string, string> tag, Func<Member, Member> member) => new()
    {
        Id = organization.Id,
        Tags = organization.Tags?.Select(tag).ToArray(),
        Members = organization.Members?.Select(member).ToList(),
    };

    private static string? Utf8(string? value) => value is null ? null : Encoding.UTF8.GetString(Encoding.UTF8.GetBytes(value));
}
