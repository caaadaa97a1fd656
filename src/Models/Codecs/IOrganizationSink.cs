namespace WebSerialization.Models.Codecs;

/// <summary>
/// Where a decoder hands an organization over as it is read: the header, each member as soon as it is complete, and
/// the final header once the payload has ended. A sink that folds each member into a summary or writes it on in
/// another format decodes any number of members in the memory of one, and allocates nothing for them.
/// </summary>
public interface IOrganizationSink
{
    /// <summary>
    /// Called once, before the first member, when the members collection starts (not at all when it is null or absent),
    /// with the id and tags read so far. JSON and protobuf may put the id and tags after the members; then
    /// <see cref="Complete"/> has the final ones.
    /// </summary>
    /// <param name="header">The id and tags so far, and the declared member count (-1 when the format declares none).</param>
    void BeginMembers(OrganizationHeader header);

    /// <summary>
    /// Takes the next member, complete and checked against the limits, as a view that is valid only during this call:
    /// its texts are the decoder's buffers, which the next member overwrites.
    /// </summary>
    void AddMember(in MemberView member);

    /// <summary>Called once, when the whole payload has been decoded and checked.</summary>
    /// <param name="header">The final id and tags, and how many members there were (-1 when Members is null).</param>
    void Complete(OrganizationHeader header);
}
