namespace WebSerialization.IntegrationTests;

[Collection(ApiCollection.Name)]
public sealed class EncoderWarmUpTests(ApiServer server, SwitchedOffApiServer switchedOff) : IClassFixture<SwitchedOffApiServer>
{
    private const string WarmedUp = "Encoders warmed up";

    [Fact]
    public void WarmsEveryEncoderUpBeforeTakingRequests()
    {
        Assert.Contains(server.AppEvents, entry => entry.Message.StartsWith(WarmedUp, StringComparison.Ordinal));
    }

    [Fact]
    public async Task SkipsTheWarmUpWhenSwitchedOffAndStillServes()
    {
        using var response = await switchedOff.Client.GetAsync("/api/organization?format=msgpack&count=10");

        Assert.True(response.IsSuccessStatusCode);
        Assert.DoesNotContain(switchedOff.AppEvents, entry => entry.Message.StartsWith(WarmedUp, StringComparison.Ordinal));
    }
}
