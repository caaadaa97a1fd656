namespace WebSerialization.Codecs.Tests;

public class OrganizationGeneratorTests
{
    [Fact]
    public void GeneratesTheSameMembersEveryTime()
    {
        var first = OrganizationGenerator.Create(1000);
        var second = OrganizationGenerator.Create(1000);

        Assert.Equal(1, first.Id);
        Assert.Equal(["TestTag0", "TestTag1", "TestTag2", "TestTag3", "TestTag4"], first.Tags!);
        Assert.Equal(1000, first.Members!.Count);
        for (var i = 0; i < 1000; i++)
        {
            var a = first.Members[i];
            var b = second.Members![i];
            Assert.Equal(i, a.Id);
            Assert.Equal($"TestName{i}", a.Name);
            Assert.StartsWith("TestDescription", a.Description, StringComparison.Ordinal);
            Assert.StartsWith("TestAddress", a.Address, StringComparison.Ordinal);
            Assert.Equal((a.Description, a.Address, a.Value, a.UpdateTime), (b.Description, b.Address, b.Value, b.UpdateTime));
            Assert.Equal(Math.Floor(a.Value), a.Value);
            Assert.InRange(a.UpdateTime, OrganizationGenerator.BaseUpdateTime, OrganizationGenerator.BaseUpdateTime + 86_400_000);
        }
    }

    [Fact]
    public void ASmallerOrganizationIsAPrefixOfALargerOne()
    {
        var small = OrganizationGenerator.Create(10);
        var large = OrganizationGenerator.Create(100);

        Assert.Equal(small.Members!.Select(m => m.Description), large.Members!.Take(10).Select(m => m.Description));
    }
}
