using WebSerialization.Load.Scenarios.Examples;
using LoadOptions = WebSerialization.Load.Running.LoadOptions;

namespace WebSerialization.Load.Tests;

/// <summary>Which scenarios a run measures, in which order: every built-in family by its name prefix, and the ones registered in code.</summary>
public class ScenarioSelectionTests
{
    [Theory]
    [InlineData("baseline", "10000,1000000",
        "baseline-download-json-10000 baseline-download-msgpack-10000 baseline-download-protobuf-10000 baseline-download-json-1000000 baseline-download-msgpack-1000000 baseline-download-protobuf-1000000 "
        + "baseline-upload-json-10000 baseline-upload-msgpack-10000 baseline-upload-protobuf-10000 baseline-upload-json-1000000 baseline-upload-msgpack-1000000 baseline-upload-protobuf-1000000")]
    [InlineData("compressed", "10000,1000000",
        "compressed-download-json-gzip-10000 compressed-download-json-br-10000 compressed-download-msgpack-gzip-10000 compressed-download-msgpack-br-10000 "
        + "compressed-download-protobuf-gzip-10000 compressed-download-protobuf-br-10000 compressed-download-binary-gzip-10000 compressed-download-binary-br-10000 "
        + "compressed-download-json-gzip-1000000 compressed-download-json-br-1000000 compressed-download-msgpack-gzip-1000000 compressed-download-msgpack-br-1000000 "
        + "compressed-download-protobuf-gzip-1000000 compressed-download-protobuf-br-1000000 compressed-download-binary-gzip-1000000 compressed-download-binary-br-1000000")]
    [InlineData("download,compressed", "1000000",
        "download-json-1000000 download-msgpack-1000000 download-protobuf-1000000 download-binary-1000000 "
        + "compressed-download-json-gzip-1000000 compressed-download-json-br-1000000 compressed-download-msgpack-gzip-1000000 compressed-download-msgpack-br-1000000 "
        + "compressed-download-protobuf-gzip-1000000 compressed-download-protobuf-br-1000000 compressed-download-binary-gzip-1000000 compressed-download-binary-br-1000000")]
    [InlineData("grpc", "1000000,10000", "grpc-unary-10000 grpc-stream-10000 grpc-unary-1000000 grpc-stream-1000000")]
    public void RunsTheScenariosANamedPrefixSelectsInOrder(string scenarios, string counts, string names) =>
        Assert.Equal(names.Split(' '), ScenarioSelection.Select(LoadOptions.Parse(["--scenarios", scenarios, "--count", counts])).Select(scenario => scenario.Name));

    [Theory]
    [InlineData("baseline-download", 6)]
    [InlineData("baseline-upload-msgpack", 2)]
    [InlineData("download-json", 2)]
    public void SelectsTheStockScenariosByTheSamePrefixesAsTheStreamedOnes(string filter, int expected)
    {
        var scenarios = ScenarioSelection.Select(LoadOptions.Parse(["--scenarios", filter]));

        Assert.Equal(expected, scenarios.Count);
        Assert.All(scenarios, scenario => Assert.StartsWith(filter, scenario.Name, StringComparison.Ordinal));
    }

    // The stock MVC endpoint and the compressed downloads run only when --scenarios names them.
    [Theory]
    [InlineData("baseline")]
    [InlineData("compressed")]
    public void LeavesTheDefaultRunAndTheSmokeWithoutTheScenariosRunOnlyWhenNamed(string family)
    {
        var all = ScenarioSelection.Select(new LoadOptions()).Concat(ScenarioSelection.Select(LoadOptions.Parse(["--smoke"])));

        Assert.All(all, scenario => Assert.False(family == "baseline" ? scenario.Subject!.Baseline : scenario.Subject!.ContentEncoding is not null, scenario.Name));
    }

    [Fact]
    public void RunsEveryScenarioAtTenThousandMembersAndTheJsonDownloadOfAMillionInTheSmoke()
    {
        var scenarios = ScenarioSelection.Select(LoadOptions.Parse(["--smoke"]));
        var large = Assert.Single(scenarios, scenario => scenario.Subject!.MemberCount > LoadOptions.SmokeMemberCount);
        Assert.Equal("download-json-1000000", large.Name);
        Assert.Equal(ScenarioSelection.Select(new LoadOptions { MemberCounts = [LoadOptions.SmokeMemberCount] }).Select(scenario => scenario.Name),
            scenarios.Where(scenario => scenario != large).Select(scenario => scenario.Name));
    }

    [Fact]
    public void RunsTheScenariosRegisteredInCodeAfterTheBuiltInOnes()
    {
        var example = BrotliRoundTrip.Create();

        var smoke = ScenarioSelection.Select(LoadOptions.Parse(["--smoke"]), [example]);
        var named = ScenarioSelection.Select(LoadOptions.Parse(["--scenarios", "brotli"]), [example]);
        var byDefault = ScenarioSelection.Select(new LoadOptions(), [example]);

        Assert.Equal(BrotliRoundTrip.Name, smoke[^1].Name);
        Assert.Equal([BrotliRoundTrip.Name], named.Select(scenario => scenario.Name));
        Assert.DoesNotContain(byDefault, scenario => scenario.Name == BrotliRoundTrip.Name);
    }

    [Fact]
    public void RefusesTwoRegisteredScenariosOfOneName()
    {
        var runner = LoadRunner.RegisterScenarios(BrotliRoundTrip.Create());
        Assert.Throws<ArgumentException>(() => runner.AndScenarios(BrotliRoundTrip.Create()));
        Assert.Throws<ArgumentException>(() => LoadRunner.RegisterScenarios(BrotliRoundTrip.Create(), BrotliRoundTrip.Create()));
    }
}
