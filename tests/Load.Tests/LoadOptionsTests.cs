namespace WebSerialization.Load.Tests;

public class LoadOptionsTests
{
    [Fact]
    public void RunsEachScenarioOnceByDefaultAndInTheSmoke() => Assert.Equal((1, 1), (LoadOptions.Parse([]).Repetitions, LoadOptions.Parse(["--smoke"]).Repetitions));

    [Theory]
    [InlineData("1", 1)]
    [InlineData("3", 3)]
    [InlineData("20", 20)]
    public void ReadsTheNumberOfRepetitions(string value, int repetitions) => Assert.Equal(repetitions, LoadOptions.Parse(["--scenarios", "download", "--repeat", value]).Repetitions);

    [Theory]
    [InlineData("0")]
    [InlineData("21")]
    [InlineData("-1")]
    [InlineData("three")]
    [InlineData("1.5")]
    [InlineData("2,3")]
    public void RefusesARepetitionCountOutsideOneToTwenty(string value) =>
        Assert.Equal($"--repeat: '{value}' is not a whole number from 1 to 20.", Assert.Throws<ArgumentException>(() => LoadOptions.Parse(["--repeat", value])).Message);

    [Fact]
    public void RefusesRepeatWithoutAValue() => Assert.Contains("'--repeat'", Assert.Throws<ArgumentException>(() => LoadOptions.Parse(["--repeat"])).Message, StringComparison.Ordinal);

    // Each message names the option it refuses, first.
    [Theory]
    [InlineData(new[] { "--smoke", "--repeat", "3" }, "--repeat does not apply to --smoke")]
    [InlineData(new[] { "--max-requests", "10,20" }, "--max-requests: '10,20' is not a whole number")]
    [InlineData(new[] { "--rate", "0" }, "--rate")]
    [InlineData(new[] { "--rate", "fast" }, "--rate")]
    [InlineData(new[] { "--capacity", "--rate", "100" }, "--capacity")]
    [InlineData(new[] { "--rate-start", "200", "--rate-max", "100" }, "--rate-max")]
    [InlineData(new[] { "--rate-factor", "1" }, "--rate-factor")]
    [InlineData(new[] { "--p99-bound", "0" }, "--p99-bound")]
    [InlineData(new[] { "--cpu-layout", "both" }, "--cpu-layout: 'both' is not split or shared.")]
    [InlineData(new[] { "--server-cpus", "one" }, "--server-cpus: 'one' is not a list of CPU numbers")]
    [InlineData(new[] { "--url", "http://127.0.0.1:8080", "--server-cpus", "0" }, "--server-cpus and --cpu-layout place a server the runner starts")]
    [InlineData(new[] { "--url", "http://127.0.0.1:8080", "--cpu-layout", "shared" }, "--server-cpus and --cpu-layout place a server the runner starts")]
    [InlineData(new[] { "--log-cost", "--smoke" }, "--log-cost starts its own servers")]
    [InlineData(new[] { "--log-cost", "--capacity" }, "--log-cost starts its own servers")]
    [InlineData(new[] { "--log-cost", "--url", "http://127.0.0.1:5000" }, "--log-cost starts its own servers")]
    [InlineData(new[] { "--log-cost", "--cpu-layout", "shared" }, "--log-cost starts its own servers")]
    [InlineData(new[] { "--histogram-log", "/no/such/folder/runner.hlog" }, "--histogram-log: '/no/such/folder/runner.hlog' is not a file in a folder that exists.")]
    [InlineData(new[] { "--log-cost", "--histogram-log", "runner.hlog" }, "--histogram-log applies to load runs")]
    [InlineData(new[] { "--url", "http://10.1.2.3:8080" }, "--url: '10.1.2.3' is not a loopback address; the load runner only targets this machine (127.0.0.1, localhost, [::1]) unless --remote is given.")]
    [InlineData(new[] { "--remote" }, "--remote applies to --url")]
    [InlineData(new[] { "--api-from", "/", "--url", "http://127.0.0.1:8080" }, "--api-from chooses the API a load or capacity run starts")]
    [InlineData(new[] { "--api-from", "/", "--log-cost" }, "--api-from chooses the API a load or capacity run starts")]
    [InlineData(new[] { "--api-from", "/" }, "--api-from: '/' is not a checkout of this repository")]
    [InlineData(new[] { "--through-haproxy", "--url", "http://127.0.0.1:8080" }, "--through-haproxy starts its own replicas and HAProxy: leave out --url.")]
    [InlineData(new[] { "--through-haproxy", "--capacity" }, "--through-haproxy compares closed- or open-model runs")]
    [InlineData(new[] { "--through-haproxy", "--smoke" }, "--through-haproxy compares closed- or open-model runs")]
    [InlineData(new[] { "--through-haproxy", "--log-cost" }, "--through-haproxy compares closed- or open-model runs")]
    [InlineData(new[] { "--through-haproxy", "--cpu-layout", "split,shared" }, "--through-haproxy compares two routes under one CPU layout")]
    [InlineData(new[] { "--through-haproxy", "--histogram-log", "runner.hlog" }, "--histogram-log merges runs against one server")]
    [InlineData(new[] { "--through-haproxy", "--scenarios", "download,grpc-stream" }, "--through-haproxy: deploy/haproxy/haproxy.cfg proxies the HTTP port, not gRPC's")]
    [InlineData(new[] { "--through-haproxy", "--scenarios", "g" }, "--through-haproxy: deploy/haproxy/haproxy.cfg proxies the HTTP port, not gRPC's")]
    public void RefusesOptionsItCannotFollow(string[] args, string message) =>
        Assert.StartsWith(message, Assert.Throws<ArgumentException>(() => LoadOptions.Parse(args)).Message, StringComparison.Ordinal);

    [Fact]
    public void MeasuresTheDownloadsThroughHAProxyUnlessToldOtherwise()
    {
        var options = LoadOptions.Parse(["--through-haproxy"]);
        var chosen = LoadOptions.Parse(["--through-haproxy", "--scenarios", "download-msgpack,upload-json", "--repeat", "5", "--cpu-layout", "shared"]);
        var open = LoadOptions.Parse(["--through-haproxy", "--rate", "10"]);

        Assert.True(options.ThroughHAProxy);
        Assert.Equal(["download"], options.ScenarioFilters);
        Assert.True(chosen.ThroughHAProxy);
        Assert.Equal(["download-msgpack", "upload-json"], chosen.ScenarioFilters);
        Assert.Equal(5, chosen.Repetitions);
        Assert.Equal([10.0], open.Rates);
        Assert.False(LoadOptions.Parse([]).ThroughHAProxy);
        Assert.Contains("--through-haproxy", LoadOptions.Usage, StringComparison.Ordinal);
    }

    [Fact]
    public void StartsTheApiOfAnotherCheckoutAndNamesItsCommit()
    {
        var checkout = WebSerialization.Tests.Support.RepositoryFolder.Root;
        var options = LoadOptions.Parse(["--api-from", checkout, "--capacity"]);
        using var git = System.Diagnostics.Process.Start(new System.Diagnostics.ProcessStartInfo("git", $"-C {checkout} rev-parse --short HEAD") { RedirectStandardOutput = true })!;
        var commit = git.StandardOutput.ReadToEnd().Trim();
        git.WaitForExit();

        Assert.Equal(Path.GetFullPath(checkout), options.ApiFrom);
        Assert.Equal(commit, ApiServerProcess.CommitOf(checkout));
        Assert.Equal("unknown", ApiServerProcess.CommitOf(Path.GetTempPath()));
    }

    [Theory]
    [InlineData("0")]
    [InlineData("x")]
    public async Task ExitsWithCode2OnABadRepetitionCountBeforeStartingAnything(string value) => Assert.Equal(2, await LoadRun.RunAsync(["--repeat", value], []));

    [Theory]
    [InlineData("--copies", "[default: 1|4]")]
    [InlineData("--rate-start", "[default: 50]")]
    [InlineData("--p99-bound", "[default: 100]")]
    [InlineData("--warmup", "[default: 3]")]
    [InlineData("--duration", "[default: 10]")]
    [InlineData("--rate", "Open model")]
    [InlineData("--capacity", "Capacity mode")]
    [InlineData("--smoke", "CI smoke")]
    [InlineData("--server-cpus", "taskset")]
    [InlineData("--client-cpus", "taskset -a")]
    [InlineData("--cpu-layout", "split,shared")]
    [InlineData("--repeat", "<N>")]
    [InlineData("--repeat", "fresh")]
    public void HelpListsEveryOptionWithItsDefault(string option, string text) =>
        Assert.Contains(text, LoadOptions.Usage.Split('\n').Single(line => line.TrimStart().StartsWith(option + " ", StringComparison.Ordinal)), StringComparison.Ordinal);

    [Fact]
    public void KeepsTheSmokesSettingsWhereTheCommandLineDoesNotChangeThem()
    {
        var smoke = LoadOptions.Parse(["--smoke", "--scenarios", "download"]);
        Assert.Equal((TimeSpan.FromSeconds(2), true), (smoke.Duration, smoke.SharedServer));
        Assert.Equal(["download"], smoke.ScenarioFilters);
        Assert.Equal(TimeSpan.FromSeconds(4), LoadOptions.Parse(["--smoke", "--duration", "4"]).Duration);
    }

    [Fact]
    public void ReadsTheOpenModelsRatesAndTheCapacitySearch()
    {
        Assert.Equal([50.0, 200.0], LoadOptions.Parse(["--rate", "50,200"]).Rates);
        var capacity = LoadOptions.Parse(["--capacity", "--rate-start", "100", "--rate-factor", "2", "--rate-max", "800", "--p99-bound", "50", "--step-attempts", "3"]);
        Assert.Equal((100.0, 2.0, 800.0, TimeSpan.FromMilliseconds(50), 3), (capacity.RateStart, capacity.RateFactor, capacity.RateMax, capacity.P99Bound, capacity.StepAttempts));
        Assert.Equal(2, LoadOptions.Parse(["--capacity"]).StepAttempts);
        Assert.Equal([LoadOptions.CapacityMemberCount], capacity.MemberCounts);
        Assert.Equal(["download", "upload"], capacity.ScenarioFilters);
        Assert.Empty(LoadOptions.Parse([]).ScenarioFilters);
    }

    [Fact]
    public void TheSmokeCoversTheOpenModelAndACapacitySearchOfTwoSteps() =>
        Assert.Equal([LoadOptions.SmokeRate, 2 * LoadOptions.SmokeRate], CapacitySearch.From(LoadOptions.Parse(["--smoke"])).Rates());

    [Fact]
    public void ReadsWhereTheServerAndTheClientRun()
    {
        var options = LoadOptions.Parse(["--server-cpus", "0,2", "--client-cpus", "1-3", "--cpu-layout", "split,shared"]);
        Assert.Equal(("0,2", "1-3"), (options.ServerCpus!.ToString(), options.ClientCpus!.ToString()));
        Assert.Equal([CpuLayout.Split, CpuLayout.Shared], options.CpuLayouts);
        Assert.Empty(LoadOptions.Parse([]).CpuLayouts);
    }

    [Fact]
    public void ReadsTheLogCostModeAndItsMixedLoadDuration()
    {
        Assert.False(LoadOptions.Parse([]).LogCost);
        Assert.Equal(TimeSpan.FromMinutes(5), LoadOptions.Parse(["--log-cost"]).LogVolumeDuration);
        var options = LoadOptions.Parse(["--log-cost", "--log-volume-duration", "90"]);
        Assert.Equal((true, TimeSpan.FromSeconds(90)), (options.LogCost, options.LogVolumeDuration));
    }

    [Fact]
    public void ReadsWhereTheHistogramLogGoes()
    {
        var path = Path.Combine(Path.GetTempPath(), "runner-1.hlog");
        Assert.Null(LoadOptions.Parse([]).HistogramLog);
        Assert.Equal(path, LoadOptions.Parse(["--histogram-log", path]).HistogramLog);
    }

    [Fact]
    public void TargetsAnotherMachineOnlyWhenToldTo()
    {
        var options = LoadOptions.Parse(["--url", "http://loadbalancer.example:8080/ignored", "--remote"]);
        Assert.Equal((new Uri("http://loadbalancer.example:8080"), true), (options.Url, options.Remote));
        Assert.False(LoadOptions.Parse(["--url", "http://127.0.0.1:8080"]).Remote);
    }
}
