using WebSerialization.Models.Codecs;
using WebSerialization.Models.Streaming;

namespace WebSerialization.Load.Tests;

public sealed class InProcessDecodeTests
{
    public static TheoryData<string> Formats => [.. WireFormat.All.Select(format => format.Key)];

    [Theory]
    [MemberData(nameof(Formats))]
    public async Task DecodesWarmBeforeItMeasures(string key)
    {
        var format = WireFormat.All.Single(candidate => candidate.Key == key);
        var payload = Encode(format, OrganizationGenerator.Create(2_000));

        var measurement = await InProcessDecode.MeasureAsync(format, payload, CancellationToken.None);

        Assert.Equal(payload.Length, measurement.Bytes);
        Assert.InRange(measurement.WarmUpRuns, 2, 30);
        Assert.True(measurement.Median > TimeSpan.Zero);
    }

    [Fact]
    public async Task ABadPayloadFailsTheMeasurement()
    {
        var payload = Encode(WireFormat.Json, OrganizationGenerator.Create(10));

        await Assert.ThrowsAsync<WireFormatException>(() => InProcessDecode.MeasureAsync(WireFormat.Json, payload[..^3], CancellationToken.None));
    }

    private static byte[] Encode(WireFormat format, Organization organization) =>
        CodecHarness.WriteStreamed(format.Codec, organization, OrganizationStreamWriter.DefaultChunkSize);
}
