using MessagePack;
using ProtoBuf;

namespace WebSerialization.Models;

/// <summary>
/// The one large object this API serves: an organization with its tags and members.
/// Field order is the wire order in every format (protobuf field numbers 1..3, MessagePack keys 0..2), and the
/// attributes are the seed articles' contract, so MessagePack-CSharp and protobuf-net read and write our bodies
/// with this assembly alone.
/// </summary>
[MessagePackObject]
[ProtoContract]
public sealed class Organization
{
    /// <summary>Organization id (protobuf field 1, MessagePack key 0, JSON <c>id</c>).</summary>
    [Key(0)]
    [ProtoMember(1)]
    public int Id { get; set; }

    /// <summary>Free-form tags (protobuf field 2, MessagePack key 1, JSON <c>tags</c>); null and empty differ where the format can say so.</summary>
    [Key(1)]
    [ProtoMember(2)]
    public string[]? Tags { get; set; }

    /// <summary>The members (protobuf field 3, MessagePack key 2, JSON <c>members</c>).</summary>
    [Key(2)]
    [ProtoMember(3)]
    public List<Member>? Members { get; set; }
}
