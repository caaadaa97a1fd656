using WebSerialization.Models;

namespace WebSerialization.Codecs.Tests.Binary;

/// <summary>Field-by-field equality of organizations, with doubles compared bit for bit (NaN payloads, -0.0).</summary>
internal static class OrganizationAssert
{
    public static void Equal(Organization expected, Organization actual)
    {
        Assert.Equal(expected.Id, actual.Id);
        if (expected.Tags is null)
        {
            Assert.Null(actual.Tags);
        }
        else
        {
            Assert.NotNull(actual.Tags);
            Assert.Equal(expected.Tags, actual.Tags);
        }

        if (expected.Members is null)
        {
            Assert.Null(actual.Members);
            return;
        }

        Assert.NotNull(actual.Members);
        Assert.Equal(expected.Members.Count, actual.Members.Count);
        for (var i = 0; i < expected.Members.Count; i++)
        {
            Equal(expected.Members[i], actual.Members[i], i);
        }
    }

    private static void Equal(Member expected, Member actual, int index)
    {
        // One comparison per member keeps a million-member check fast; the message says which member differs.
        if (expected.Id != actual.Id
            || !string.Equals(expected.Name, actual.Name, StringComparison.Ordinal)
            || !string.Equals(expected.Description, actual.Description, StringComparison.Ordinal)
            || !string.Equals(expected.Address, actual.Address, StringComparison.Ordinal)
            || BitConverter.DoubleToInt64Bits(expected.Value) != BitConverter.DoubleToInt64Bits(actual.Value)
            || expected.UpdateTime != actual.UpdateTime)
        {
            Assert.Fail($"Member {index} differs: expected {Describe(expected)}, got {Describe(actual)}.");
        }
    }

    private static string Describe(Member member) =>
        $"(Id {member.Id}, Name {Quote(member.Name)}, Description {Quote(member.Description)}, Address {Quote(member.Address)}, " +
        $"Value bits 0x{BitConverter.DoubleToInt64Bits(member.Value):X16}, UpdateTime {member.UpdateTime})";

    private static string Quote(string? value) => value is null ? "null" : $"\"{value}\"";
}
