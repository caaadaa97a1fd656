using MessagePack;
using ProtoBuf;

namespace WebSerialization.Codecs.Tests.Libraries;

/// <summary>
/// A library that is the reference for one of our codecs, and the documented differences between the two
/// (docs/libraries.md), each as a function of the organization, so that a test asserts exactly those and no others.
/// </summary>
internal sealed class ReferenceLibrary
{
    /// <summary>MessagePack-CSharp with <see cref="MessagePackSerializerOptions.Standard"/>: no difference at all.</summary>
    public static readonly ReferenceLibrary MessagePackCSharp = new(
        "MessagePack-CSharp",
        MessagePackCodec.Instance,
        organization => MessagePackSerializer.Serialize(organization, MessagePackSerializerOptions.Standard),
        bytes => MessagePackSerializer.Deserialize<Organization>(bytes, MessagePackSerializerOptions.Standard),
        writtenAs: organization => organization,
        readBack: organization => organization);

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
        writtenAs: NegativeZeroAsZero,
        readBack: EmptyListsAsNull);

    private readonly Func<Organization, byte[]> _serialize;
    private readonly Func<byte[], Organization> _deserialize;
    private readonly Func<Organization, Organization> _writtenAs;
    private readonly Func<Organization, Organization> _readBack;

    private ReferenceLibrary(
        string name,
        IWireFormatCodec codec,
        Func<Organization, byte[]> serialize,
        Func<byte[], Organization> deserialize,
        Func<Organization, Organization> writtenAs,
        Func<Organization, Organization> readBack)
    {
        Name = name;
        Codec = codec;
        _serialize = serialize;
        _deserialize = deserialize;
        _writtenAs = writtenAs;
        _readBack = readBack;
    }

    public string Name { get; }

    /// <summary>Our codec of the library's format.</summary>
    public IWireFormatCodec Codec { get; }

    public static TheoryData<string> Names => [MessagePackCSharp.Name, ProtobufNet.Name];

    public static ReferenceLibrary Named(string name) => name == MessagePackCSharp.Name ? MessagePackCSharp : ProtobufNet;

    public byte[] Serialize(Organization organization) => _serialize(organization);

    public Organization Deserialize(byte[] bytes) => _deserialize(bytes);

    /// <summary>
    /// The organization whose bytes, as our encoder writes them, are the library's bytes for
    /// <paramref name="organization"/>: the same instance wherever the library writes what we write.
    /// </summary>
    public Organization WrittenAs(Organization organization) => _writtenAs(organization);

    /// <summary>
    /// What either side reads back from a body that <paramref name="organization"/> was written to: every string as
    /// UTF-8 carries it (a lone surrogate becomes U+FFFD in every encoder here), and what the format cannot say lost.
    /// </summary>
    public Organization ReadBack(Organization organization) => _readBack(AsUtf8Carries(organization));

    public override string ToString() => Name;

    private static Organization NegativeZeroAsZero(Organization organization) =>
        organization.Members?.Any(member => IsNegativeZero(member.Value)) == true
            ? Map(organization, tag => tag, member => new Member
            {
                Id = member.Id,
                Name = member.Name,
                Description = member.Description,
                Address = member.Address,
                Value = IsNegativeZero(member.Value) ? 0.0 : member.Value,
                UpdateTime = member.UpdateTime,
            })
            : organization;

    private static bool IsNegativeZero(double value) => BitConverter.DoubleToInt64Bits(value) == BitConverter.DoubleToInt64Bits(-0.0);

    private static Organization EmptyListsAsNull(Organization organization) => new()
    {
        Id = organization.Id,
        Tags = organization.Tags is { Length: > 0 } tags ? tags : null,
        Members = organization.Members is { Count: > 0 } members ? members : null,
    };

    private static Organization AsUtf8Carries(Organization organization) => Map(organization, tag => Utf8(tag)!, member => new Member
    {
        Id = member.Id,
        Name = Utf8(member.Name),
        Description = Utf8(member.Description),
        Address = Utf8(member.Address),
        Value = member.Value,
        UpdateTime = member.UpdateTime,
    });

    private static Organization Map(Organization organization, Func<string, string> tag, Func<Member, Member> member) => new()
    {
        Id = organization.Id,
        Tags = organization.Tags?.Select(tag).ToArray(),
        Members = organization.Members?.Select(member).ToList(),
    };

    private static string? Utf8(string? value) => value is null ? null : Encoding.UTF8.GetString(Encoding.UTF8.GetBytes(value));
}
