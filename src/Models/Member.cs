namespace WebSerialization.Models;

/// <summary>
/// One member of an <see cref="Organization"/>. Field order is the wire order in every format
/// (protobuf field numbers 1..6, MessagePack keys 0..5).
/// </summary>
public sealed class Member
{
    /// <summary>Member id (protobuf field 1, int32).</summary>
    public int Id { get; set; }

    /// <summary>Name (protobuf field 2).</summary>
    public string? Name { get; set; }

    /// <summary>Description (protobuf field 3).</summary>
    public string? Description { get; set; }

    /// <summary>Address (protobuf field 4).</summary>
    public string? Address { get; set; }

    /// <summary>A value (protobuf field 5, double); NaN, infinities and -0.0 are legal.</summary>
    public double Value { get; set; }

    /// <summary>Last update as Unix time in milliseconds (protobuf field 6, int64).</summary>
    public long UpdateTime { get; set; }
}
