namespace WebSerialization.Models.Codecs;

/// <summary>
/// The sink that builds the whole <see cref="Organization"/>, for callers that want the object graph (tests, .NET
/// clients): what <see cref="IOrganizationDecoder.GetResult"/> returns. The server never uses it for an upload.
/// </summary>
public sealed class OrganizationCollector : IOrganizationSink
{
    private List<Member>? _members;
    private int _declaredCount = -1;
    private long _capacityHint;
    private Organization? _result;

    /// <summary>The organization, once the decoder has completed.</summary>
    /// <exception cref="InvalidOperationException">The payload is not complete yet.</exception>
    public Organization Result => _result ?? throw new InvalidOperationException("The payload is not complete yet.");

    /// <summary>The sink a decoder hands members to: <paramref name="sink"/>, or a new collector when it is null.</summary>
    internal static (IOrganizationSink Sink, OrganizationCollector? Collector) Unless(IOrganizationSink? sink)
    {
        if (sink is not null)
        {
            return (sink, null);
        }

        var collector = new OrganizationCollector();
        return (collector, collector);
    }

    /// <summary>What a decoder's <see cref="IOrganizationDecoder.GetResult"/> answers.</summary>
    internal static Organization ResultOf(OrganizationCollector? collector, bool isComplete) =>
        !isComplete ? throw new InvalidOperationException("The payload is not complete yet.")
        : collector?.Result ?? throw new InvalidOperationException("This decoder handed its members to a sink; it has no organization to return.");

    /// <inheritdoc />
    public void BeginMembers(OrganizationHeader header)
    {
        _declaredCount = header.MemberCount;
        _members = header.MemberCount >= 0 ? new List<Member>((int)Math.Min(header.MemberCount, _capacityHint)) : [];
    }

    /// <inheritdoc />
    public void AddMember(in MemberView member)
    {
        var members = _members!;
        if (members.Count == members.Capacity && _declaredCount >= 0)
        {
            Grow(members);
        }

        members.Add(member.ToMember());
    }

    /// <summary>
    /// Tells the collector how many members the bytes received so far could hold at most. A declared count is reserved
    /// only as far as the bytes justify, so a payload that merely claims a large count gets no more than its bytes,
    /// while a real one reaches its full count in two or three steps instead of doubling a dozen times (each step a new
    /// array on the large object heap).
    /// </summary>
    internal void SetCapacityHint(long members) => _capacityHint = members;

    private void Grow(List<Member> members)
    {
        var count = members.Count;
        members.Capacity = (int)Math.Min(_declaredCount, Math.Max(Math.Max(2L * count, 4), _capacityHint));
    }

    /// <inheritdoc />
    public void Complete(OrganizationHeader header) =>
        _result = new Organization
        {
            Id = header.Id,
            Tags = header.Tags!,
            Members = header.HasMembers ? _members ?? [] : null,
        };
}
