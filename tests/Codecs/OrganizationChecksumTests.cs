using System.IO.Hashing;

namespace WebSerialization.Codecs.Tests;

public class OrganizationChecksumTests
{
    [Fact]
    public void HashesTheDocumentedCanonicalEncoding()
    {
        var organization = new Organization
        {
            Id = 7,
            Tags = ["a", "é"],
            Members = [new Member { Id = -1, Name = "x", Description = null, Address = string.Empty, Value = double.NaN, UpdateTime = long.MinValue }],
        };
        var expected = CanonicalHash(writer =>
        {
            writer.Write((byte)0x01);
            writer.Write(-1);
            WriteString(writer, "x");
            WriteString(writer, null);
            WriteString(writer, string.Empty);
            writer.Write(0x7FF8_0000_0000_0000);
            writer.Write(long.MinValue);
            writer.Write((byte)0x00);
            writer.Write(1);
            writer.Write(7);
            writer.Write(2);
            WriteString(writer, "a");
            WriteString(writer, "é");
        });

        Assert.Equal(expected, OrganizationChecksum.Compute(organization));
    }

    [Fact]
    public void GivesTheSeedOrganizationAStableChecksum()
    {
        // A test vector for clients in other languages, the first three seed members: the value was computed from the
        // documented encoding by a separate JavaScript implementation, not by this one.
        Assert.Equal(
            "90ca137329363b3b2558344222d4d556",
            OrganizationChecksum.Compute(OrganizationGenerator.Create(3)));
    }

    // The builder is ready for another organization once it has completed one.
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void GivesTheOneShotChecksumWhenMembersAreFoldedInOneByOne(bool afterAnotherOrganization)
    {
        var organization = OrganizationGenerator.Create(1000);
        var builder = new OrganizationChecksumBuilder();
        if (afterAnotherOrganization)
        {
            builder.Append(new Member { Id = 99 });
            builder.Complete(1, null, hasMembers: true);
        }

        foreach (var member in organization.Members!)
        {
            builder.Append(member);
        }

        Assert.Equal(1000, builder.MemberCount);
        Assert.Equal(OrganizationChecksum.Compute(organization), builder.Complete(organization.Id, organization.Tags, hasMembers: true));
    }

    [Fact]
    public void RefusesMembersForAnOrganizationWithoutMembers()
    {
        var builder = new OrganizationChecksumBuilder();
        builder.Append(new Member());

        Assert.Throws<InvalidOperationException>(() => builder.Complete(1, null, hasMembers: false));
    }

    public static TheoryData<string, Action<Organization>> Changes => new()
    {
        { "id", o => o.Id++ },
        { "tags null", o => o.Tags = null },
        { "tags empty", o => o.Tags = [] },
        { "tag empty", o => o.Tags![0] = string.Empty },
        { "tag order", o => o.Tags = [.. o.Tags!.Reverse()] },
        { "members null", o => o.Members = null },
        { "members empty", o => o.Members = [] },
        { "member order", o => o.Members!.Reverse() },
        { "member id", o => o.Members![1].Id++ },
        { "name null", o => o.Members![1].Name = null },
        { "name empty", o => o.Members![1].Name = string.Empty },
        { "description", o => o.Members![1].Description += "x" },
        { "address", o => o.Members![1].Address = "TestAddress" },
        { "value", o => o.Members![1].Value = BitConverter.Int64BitsToDouble(BitConverter.DoubleToInt64Bits(o.Members[1].Value) + 1) },
        { "negative zero", o => o.Members![1].Value = -0.0 },
        { "update time", o => o.Members![1].UpdateTime++ },
        { "string boundary", o => (o.Members![1].Name, o.Members[1].Description) = (o.Members[1].Name + o.Members[1].Description![0], o.Members[1].Description![1..]) },
        { "member boundary", o => o.Members!.Add(new Member()) },
    };

    [Theory]
    [MemberData(nameof(Changes))]
    public void ChangesWhenAnyValueChanges(string change, Action<Organization> apply)
    {
        var organization = OrganizationGenerator.Create(3);
        organization.Members![2].Value = 0.0;
        var before = OrganizationChecksum.Compute(organization);

        apply(organization);

        Assert.True(before != OrganizationChecksum.Compute(organization), change);
    }

    [Fact]
    public void TreatsEveryNaNAlike()
    {
        var organization = OrganizationGenerator.Create(1);
        organization.Members![0].Value = double.NaN;
        var before = OrganizationChecksum.Compute(organization);

        organization.Members[0].Value = BitConverter.Int64BitsToDouble(0x7FF0_0000_0000_0001);

        Assert.Equal(before, OrganizationChecksum.Compute(organization));
    }

    [Fact]
    public void HashesStringsLongerThanItsBuffer()
    {
        var name = string.Concat(Enumerable.Repeat("😀é", 5000));
        var organization = new Organization { Members = [new Member { Name = name }] };
        var expected = CanonicalHash(writer =>
        {
            writer.Write((byte)0x01);
            writer.Write(0);
            WriteString(writer, name);
            WriteString(writer, null);
            WriteString(writer, null);
            writer.Write(0L);
            writer.Write(0L);
            writer.Write((byte)0x00);
            writer.Write(1);
            writer.Write(0);
            writer.Write(-1);
        });

        Assert.Equal(expected, OrganizationChecksum.Compute(organization));
    }

    [Fact]
    public void AllocatesNothingPerMember()
    {
        var members = OrganizationGenerator.Create(100_000).Members!;
        var builder = new OrganizationChecksumBuilder();

        // A whole unmeasured organization first, so that the measured pass runs tiered-up code through a hash that has
        // already flushed, finished and reset: the steady state, where a first-time cost cannot hide a per-member one.
        var allocated = Allocations.LeastOfThree(() =>
        {
            AppendAll();
            builder.Complete(1, null, hasMembers: true);
            return AppendAll;
        });

        Assert.InRange(allocated, 0, 1024);

        void AppendAll()
        {
            foreach (var member in members)
            {
                builder.Append(member);
            }
        }
    }

    // The documented canonical encoding, hashed: integers little-endian, a string as its UTF-8 length (-1 for null) and bytes.
    private static string CanonicalHash(Action<BinaryWriter> write)
    {
        using var stream = new MemoryStream();
        using (var writer = new BinaryWriter(stream))
        {
            write(writer);
        }

        return Convert.ToHexStringLower(XxHash128.Hash(stream.ToArray()));
    }

    private static void WriteString(BinaryWriter writer, string? value)
    {
        writer.Write(value is null ? -1 : Encoding.UTF8.GetByteCount(value));
        writer.Write(Encoding.UTF8.GetBytes(value ?? string.Empty));
    }
}
