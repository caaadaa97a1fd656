namespace WebSerialization.Models.Codecs;

/// <summary>
/// One decoded <see cref="Member"/> as a view of its fields: the numbers, and the three texts as UTF-8 in the decoder's
/// buffers. It is valid only during <see cref="IOrganizationSink.AddMember"/>; no object is made unless the sink asks
/// for one (<see cref="ToMember"/>), so a sink that folds or re-encodes members allocates nothing for them.
/// </summary>
public readonly ref struct MemberView
{
    /// <summary>Creates a view of the given fields.</summary>
    public MemberView(int id, Utf8Text name, Utf8Text description, Utf8Text address, double value, long updateTime)
    {
        Id = id;
        Name = name;
        Description = description;
        Address = address;
        Value = value;
        UpdateTime = updateTime;
    }

    /// <summary><see cref="Member.Id"/>.</summary>
    public int Id { get; }

    /// <summary><see cref="Member.Name"/>.</summary>
    public Utf8Text Name { get; }

    /// <summary><see cref="Member.Description"/>.</summary>
    public Utf8Text Description { get; }

    /// <summary><see cref="Member.Address"/>.</summary>
    public Utf8Text Address { get; }

    /// <summary><see cref="Member.Value"/>.</summary>
    public double Value { get; }

    /// <summary><see cref="Member.UpdateTime"/>.</summary>
    public long UpdateTime { get; }

    /// <summary>The member as a new object, its texts as new strings.</summary>
    public Member ToMember() => new()
    {
        Id = Id,
        Name = Name.ToStringOrNull(),
        Description = Description.ToStringOrNull(),
        Address = Address.ToStringOrNull(),
        Value = Value,
        UpdateTime = UpdateTime,
    };
}
