using WebSerialization.Models;

namespace WebSerialization.Codecs.Tests.MessagePack;

/// <summary>Compares organizations field by field; doubles by their bits, so NaN payloads and -0.0 count.</summary>
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

    public static void Equal(Member expected, Member actual, int index)
    {
        // One combined check keeps a million comparisons cheap; the message says which member differs.
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
        $"[{member.Id}, {member.Name ?? "null"}, {member.Description ?? "null"}, {member.Address ?? "null"}, 0x{BitConverter.DoubleToInt64Bits(member.Value):x16}, {member.UpdateTime}]";
}
