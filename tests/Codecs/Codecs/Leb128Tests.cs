using Google.Protobuf;

namespace WebSerialization.Codecs.Tests.Codecs;

/// <summary>
/// The varint writes Google.Protobuf's bytes and reads them back at every length, and its shift fallbacks for CPUs
/// without a fast pdep/pext are the same functions as those instructions (the machine running the tests uses only one
/// of the two paths).
/// </summary>
public class Leb128Tests
{
    // Every bit length from 0 to 64, each as its smallest, largest and a random value.
    public static TheoryData<ulong> Values()
    {
        var random = new Random(20231210);
        var data = new TheoryData<ulong> { 0 };
        for (var bits = 1; bits <= 64; bits++)
        {
            var low = 1UL << (bits - 1);
            var high = bits == 64 ? ulong.MaxValue : (1UL << bits) - 1;
            data.Add(low);
            data.Add(high);
            data.Add(low | ((ulong)random.NextInt64() & (high >> 1)));
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Values))]
    public void WritesGoogleProtobufsBytesAndReadsThemBack(ulong value)
    {
        var expected = new byte[CodedOutputStream.ComputeUInt64Size(value)];
        new CodedOutputStream(expected).WriteUInt64(value);
        var buffer = new byte[Leb128.MaxBytes64 + sizeof(ulong)];

        var written = Leb128.Write(buffer, value);

        Assert.Equal(expected, buffer[..written]);
        Assert.Equal(expected.Length, Leb128.Length(value));
        var at = 0;
        if (written <= sizeof(ulong))
        {
            Assert.True(Leb128.TryReadShort(ref buffer[0], ref at, Leb128.MaxBytes64, Leb128.LastByteMax64, out var read));
            Assert.Equal((value, written), (read, at));
        }
        else
        {
            Assert.False(Leb128.TryReadShort(ref buffer[0], ref at, Leb128.MaxBytes64, Leb128.LastByteMax64, out _));
            Assert.Equal(0, at);
        }
    }

    [Theory]
    [MemberData(nameof(Values))]
    public void SpreadsAndPacksSevenBitGroupsAsPdepAndPextDo(ulong value)
    {
        value &= (1UL << 56) - 1;
        ulong groups = 0;
        for (var group = 0; group < 8; group++)
        {
            groups |= ((value >> (7 * group)) & 0x7F) << (8 * group);
        }

        Assert.Equal(groups, Leb128.SpreadGroups(value));
        Assert.Equal(value, Leb128.PackGroups(groups | 0x8080_8080_8080_8080));
    }
}
