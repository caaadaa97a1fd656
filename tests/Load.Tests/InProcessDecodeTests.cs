using System.IO.Pipelines;
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
        var payload = await EncodeAsync(format, OrganizationGenerator.Create(2_000));

        var measurement = await InProcessDecode.MeasureAsync(format, payload, CancellationToken.None);

        Assert.Equal(payload.Length, measurement.Bytes);
        Assert.InRange(measurement.WarmUpRuns, 2, 30);
        Assert.True(measurement.Median > TimeSpan.Zero);
    }

    [Fact]
    public async Task ABadPayloadFailsTheMeasurement()
    {
        var payload = await EncodeAsync(WireFormat.Json, OrganizationGenerator.Create(10));

        await Assert.ThrowsAsync<WireFormatException>(() => InProcessDecode.MeasureAsync(WireFormat.Json, payload[..^3], CancellationToken.None));
    }

    private static async Task<byte[]> EncodeAsync(WireFormat format, Organization organization)
    {
        using var stream = new MemoryStream();
        var output = PipeWriter.Create(stream, new StreamPipeWriterOptions(leaveOpen: true));
        await OrganizationStreamWriter.WriteAsync(output, format.Codec.CreateEncoder(), organization, organization.Members!.Count, CancellationToken.None);
        await output.CompleteAsync();
        return stream.ToArray();
    }
}
