using System.Text;

namespace WebSerialization.Models.Codecs;

// Temporary, while the decoders move to views: hands a decoded Member to a sink as a view.
internal static class TransitionalMemberView
{
    public static void AddMember(IOrganizationSink sink, Member member)
    {
        var name = member.Name is null ? null : Encoding.UTF8.GetBytes(member.Name);
        var description = member.Description is null ? null : Encoding.UTF8.GetBytes(member.Description);
        var address = member.Address is null ? null : Encoding.UTF8.GetBytes(member.Address);
        sink.AddMember(new MemberView(
            member.Id,
            name is null ? default : new Utf8Text(name),
            description is null ? default : new Utf8Text(description),
            address is null ? default : new Utf8Text(address),
            member.Value,
            member.UpdateTime));
    }
}
