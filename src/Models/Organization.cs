namespace WebSerialization.Models;

/// <summary>
/// The one large object this API serves: an organization with its tags and members.
/// Field order is the wire order in every format (protobuf field numbers 1..3, MessagePack keys 0..2).
/// </summary>
public sealed class Organization
{
    /// <summary>Organization id (protobuf field 1, MessagePack key 0, JSON <c>id</c>).</summary>
    public int Id { get; set; }

    /// <summary>Free-form tags (protobuf field 2, MessagePack key 1, JSON <c>tags</c>); null and empty differ where the format can say so.</summary>
    public string[]? Tags { get; set; }

    /// <summary>The members (protobuf field 3, MessagePack key 2, JSON <c>members</c>).</summary>
    public List<Member>? Members { get; set; }
}
