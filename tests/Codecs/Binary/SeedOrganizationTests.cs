using System.Buffers;
using System.Diagnostics;
using System.Reflection;
using System.Runtime.InteropServices;
using WebSerialization.Models.Binary;
using WebSerialization.Models.Codecs;
using WebSerialization.Models.Json;
using WebSerialization.Models.Protobuf;
using WebSerialization.Models;
using WebSerialization.Tests.Support;
using Xunit.Abstractions;

namespace WebSerialization.Codecs.Tests.Binary;

/// <summary>
/// The binary format on the seed article's 1,000,000 members: an exact round trip, and the size and rough speed
/// that docs/binary-format.md quotes. For meaningful timings run it alone in Release:
/// <c>dotnet test tests/Codecs -c Release --filter FullyQualifiedName~SeedOrganizationTests --logger "console;verbosity=detailed"</c>.
/// </summary>
public class SeedOrganizationTests(SeedOrganizationFixture seed, ITestOutputHelper output) : IClassFixture<SeedOrganizationFixture>
{
    // The seed article's MessagePack with LZ4 block compression: 36.91 MB.
    private const long SeedMessagePackLz4Bytes = 38_706_475;

    // Timings of a Debug build mean nothing, so there one run gives the sizes. In Release, the runtime needs about ten
    // runs of a million members to move the hot methods to their final, profile-guided code.
    private static readonly int Runs =
        typeof(BinaryCodec).Assembly.GetCustomAttribute<DebuggableAttribute>()?.IsJITOptimizerDisabled == true ? 1 : 12;

    [Fact]
    public void AMillionSeedMembersRoundTripExactly()
    {
        var payload = BinaryPayload.Encode(seed.Organization);

        OrganizationAssert.Equal(seed.Organization, BinaryPayload.Decode(payload));
    }

    [Fact]
    public void AMillionSeedMembersAreSmallerInBinaryThanInProtobufAndTheSeedsMessagePackWithLz4()
    {
        var organization = seed.Organization;
        var binary = Measure(BinaryCodec.Instance, organization, Runs);
        var protobuf = Measure(ProtobufCodec.Instance, organization, Runs);
        var json = Measure(JsonCodec.Instance, organization, Math.Min(Runs, 3));
        var decode = MeasureBinaryDecode(binary.Payload, Math.Min(Runs, 6));

        output.WriteLine($"Members: {organization.Members!.Count:N0}");
        output.WriteLine($"binary   {binary.Payload.Length,13:N0} bytes {binary.Payload.Length / 1048576.0,7:F2} MiB  encode {binary.Elapsed.TotalMilliseconds,7:F0} ms  decode {decode.TotalMilliseconds,5:F0} ms");
        output.WriteLine($"protobuf {protobuf.Payload.Length,13:N0} bytes {protobuf.Payload.Length / 1048576.0,7:F2} MiB  encode {protobuf.Elapsed.TotalMilliseconds,7:F0} ms");
        output.WriteLine($"json     {json.Payload.Length,13:N0} bytes {json.Payload.Length / 1048576.0,7:F2} MiB  encode {json.Elapsed.TotalMilliseconds,7:F0} ms");
        output.WriteLine($"binary is {100.0 * binary.Payload.Length / protobuf.Payload.Length:F1}% of protobuf, {100.0 * binary.Payload.Length / SeedMessagePackLz4Bytes:F1}% of the seed's MessagePack+LZ4");

        Assert.True(binary.Payload.Length < protobuf.Payload.Length);
        Assert.True(binary.Payload.Length < SeedMessagePackLz4Bytes);
    }

    // Encodes through the streaming contract in the API's batches of 64; the best of the runs.
    private static (byte[] Payload, TimeSpan Elapsed) Measure(IWireFormatCodec codec, Organization organization, int runs)
    {
        var members = CollectionsMarshal.AsSpan(organization.Members);
        var output = new ArrayBufferWriter<byte>();
        var best = TimeSpan.MaxValue;
        for (var run = 0; run < runs; run++)
        {
            output.ResetWrittenCount();
            var stopwatch = Stopwatch.StartNew();
            var encoder = codec.CreateEncoder();
            encoder.WriteHeader(output, organization, members.Length);
            for (var index = 0; index < members.Length; index += 64)
            {
                encoder.WriteMembers(output, members.Slice(index, Math.Min(64, members.Length - index)));
            }

            encoder.WriteFooter(output);
            best = TimeSpan.FromTicks(Math.Min(best.Ticks, stopwatch.Elapsed.Ticks));
        }

        return (output.WrittenSpan.ToArray(), best);
    }

    private static TimeSpan MeasureBinaryDecode(byte[] payload, int runs)
    {
        var best = TimeSpan.MaxValue;
        for (var run = 0; run < runs; run++)
        {
            var stopwatch = Stopwatch.StartNew();
            var decoder = BinaryCodec.Instance.CreateDecoder(DecodeLimits.Default);
            decoder.Decode(new ReadOnlySequence<byte>(payload), isFinalBlock: true);
            best = TimeSpan.FromTicks(Math.Min(best.Ticks, stopwatch.Elapsed.Ticks));
        }

        return best;
    }
}
