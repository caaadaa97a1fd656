using MessagePack;
using ProtoBuf;

namespace WebSerialization.Models;

/// <summary>
/// One member of an <see cref="Organization"/>. Field order is the wire order in every format
/// (protobuf field numbers 1..6, MessagePack keys 0..5), declared by the attributes the seed articles used.
/// </summary>
[MessagePackObject]
[ProtoContract]
public sealed class Member
{
    /// <summary>Member id (protobuf field 1, int32).</summary>
    [Key(0)]
    [ProtoMember(1)]
    public int Id { get; set; }

    /// <summary>Name (protobuf field 2).</summary>
    [Key(1)]
    [ProtoMember(2)]
    public string? Name { get; set; }

    /// <summary>Description (protobuf field 3).</summary>
    [Key(2)]
    [ProtoMember(3)]
    public string? Description { get; set; }

    /// <summary>Address (protobuf field 4).</summary>
    [Key(3)]
    [ProtoMember(4)]
    public string? Address { get; set; }

    /// <summary>A value (protobuf field 5, double); NaN, infinities and -0.0 are legal.</summary>
    [Key(4)]
    [ProtoMember(5)]
    public double Value { get; set; }

    /// <summary>Last update as Unix time in milliseconds (protobuf field 6, int64).</summary>
    [Key(5)]
    [ProtoMember(6)]
    public long UpdateTime { get; set; }
}
