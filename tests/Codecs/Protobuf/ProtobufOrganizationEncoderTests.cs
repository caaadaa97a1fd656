using System.Buffers;
using System.IO.Pipelines;
using Google.Protobuf;
using WebSerialization.Models;
using WebSerialization.Models.Protobuf;
using WebSerialization.Codecs.Tests.Support;
using ProtoWireFormat = Google.Protobuf.WireFormat;

namespace WebSerialization.Codecs.Tests.Protobuf;

/// <summary>
/// The encoder writes protobuf by hand; Google.Protobuf's <see cref="CodedOutputStream"/> is the reference for every
/// byte: tags, minimal varints (10 bytes for negative int32), fixed64 bits, UTF-8 with U+FFFD for lone surrogates.
/// </summary>
public class ProtobufOrganizationEncoderTests
{
    public static TheoryData<string> Organizations => ["random 1", "random 2", "random 3", "extremes", "seed", "long texts"];

    [Theory]
    [MemberData(nameof(Organizations))]
    public void WritesTheBytesOfGoogleProtobufsCodedOutputStream(string name)
    {
        var organization = Create(name);

        Assert.Equal(Convert.ToHexString(Reference(organization)), Convert.ToHexString(CodecHarness.Encode(ProtobufCodec.Instance, organization)));
    }

    [Theory]
    [MemberData(nameof(Organizations))]
    public async Task WritesTheSameBytesIntoAPipesSmallSpans(string name)
    {
        var organization = Create(name);
        var pipe = new Pipe(new PipeOptions(minimumSegmentSize: 256, pauseWriterThreshold: 0));
        var memberCount = organization.Members?.Count ?? 0;

        var written = await OrganizationStreamWriterFor(pipe.Writer, organization, memberCount);
        await pipe.Writer.CompleteAsync();
        var payload = await ReadAll(pipe.Reader);

        Assert.Equal(payload.Length, written);
        Assert.Equal(Convert.ToHexString(Reference(organization)), Convert.ToHexString(payload));
    }

    [Fact]
    public void AllocatesNothingPerMember()
    {
        var allocated = EncodeAllocations.AfterTheFirstBatch(ProtobufCodec.Instance, OrganizationGenerator.Create(64 * 158));

        Assert.True(allocated < 1024, $"Encoding 10,048 members allocated {allocated} bytes.");
    }

    private static Organization Create(string name) => name switch
    {
        "extremes" => OrganizationGen.Extremes(),
        "seed" => OrganizationGenerator.Create(2_000),
        "long texts" => new Organization
        {
            Id = 7,
            Tags = [new string('t', 300), null!, "\uD800"],
            Members =
            [
                new() { Id = 1, Name = new string('a', 127), Description = new string('b', 128), Address = "c" },
                new() { Id = 2, Name = new string('é', 70), Description = "\uDC00x\uD83D", Address = string.Concat(Enumerable.Repeat("😀", 5000)) },
                new() { Id = -3, Name = new string('z', 20_000), Value = -0.0, UpdateTime = -1 },
            ],
        },
        _ => OrganizationGen.Random(int.Parse(name["random ".Length..], System.Globalization.CultureInfo.InvariantCulture), 300),
    };

    private static Task<long> OrganizationStreamWriterFor(PipeWriter output, Organization organization, int memberCount) =>
        WebSerialization.Models.Streaming.OrganizationStreamWriter.WriteAsync(output, ProtobufCodec.Instance.CreateEncoder(), organization, memberCount, CancellationToken.None, chunkSize: 1024);

    private static async Task<byte[]> ReadAll(PipeReader reader)
    {
        var result = await reader.ReadAsync();
        while (!result.IsCompleted)
        {
            reader.AdvanceTo(result.Buffer.Start, result.Buffer.End);
            result = await reader.ReadAsync();
        }

        var payload = result.Buffer.ToArray();
        reader.AdvanceTo(result.Buffer.End);
        return payload;
    }

    // The schema's fields with CodedOutputStream's own writers: proto3 leaves out zero numbers and null strings.
    private static byte[] Reference(Organization organization)
    {
        var stream = new MemoryStream();
        var output = new CodedOutputStream(stream);
        if (organization.Id != 0)
        {
            output.WriteTag(1, ProtoWireFormat.WireType.Varint);
            output.WriteInt32(organization.Id);
        }

        foreach (var tag in organization.Tags ?? [])
        {
            output.WriteTag(2, ProtoWireFormat.WireType.LengthDelimited);
            output.WriteString(tag ?? string.Empty);
        }

        foreach (var member in organization.Members ?? [])
        {
            var body = new MemoryStream();
            var memberOutput = new CodedOutputStream(body);
            if (member.Id != 0)
            {
                memberOutput.WriteTag(1, ProtoWireFormat.WireType.Varint);
                memberOutput.WriteInt32(member.Id);
            }

            WriteString(memberOutput, 2, member.Name);
            WriteString(memberOutput, 3, member.Description);
            WriteString(memberOutput, 4, member.Address);
            if (BitConverter.DoubleToInt64Bits(member.Value) != 0)
            {
                memberOutput.WriteTag(5, ProtoWireFormat.WireType.Fixed64);
                memberOutput.WriteDouble(member.Value);
            }

            if (member.UpdateTime != 0)
            {
                memberOutput.WriteTag(6, ProtoWireFormat.WireType.Varint);
                memberOutput.WriteInt64(member.UpdateTime);
            }

            memberOutput.Flush();
            output.WriteTag(3, ProtoWireFormat.WireType.LengthDelimited);
            output.WriteBytes(ByteString.CopyFrom(body.ToArray()));
        }

        output.Flush();
        return stream.ToArray();
    }

    private static void WriteString(CodedOutputStream output, int field, string? value)
    {
        if (value is not null)
        {
            output.WriteTag(field, ProtoWireFormat.WireType.LengthDelimited);
            output.WriteString(value);
        }
    }
}
