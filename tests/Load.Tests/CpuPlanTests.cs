namespace WebSerialization.Load.Tests;

public class CpuPlanTests
{
    private static readonly CpuSet TwoCpus = CpuSet.Parse("0-1");

    [Fact]
    public void SplitsTwoCpusOneForTheServerAndOneForTheClient()
    {
        var plan = OnTwoCpus();

        Assert.Equal([CpuLayout.Split], plan.Layouts);
        Assert.Equal(("0", "1"), (plan.Server!.ToString(), plan.Client!.ToString()));
        Assert.Equal(plan.Server, plan.ServerCpus(CpuLayout.Split));
        Assert.Equal(plan.Client, plan.ClientCpus(CpuLayout.Split));
        Assert.False(plan.Compares);
    }

    [Fact]
    public void TheSmokeSplitsTooOnTwoCpus() => Assert.Equal([CpuLayout.Split], OnTwoCpus("--smoke").Layouts);

    // Rows: the hardware threads of a core stay on one side; the only core's threads are split; the server gets the
    // larger half of an odd number of cores; the client gets what --server-cpus leaves, and the server what --client-cpus leaves.
    [Theory]
    [InlineData("", "0-3", "0,2 1,3", "0,2", "1,3")]
    [InlineData("", "0-1", "0-1", "0", "1")]
    [InlineData("", "0-2", null, "0-1", "2")]
    [InlineData("--server-cpus 1", "0-3", null, "1", "0,2-3")]
    [InlineData("--client-cpus 3", "0-3", null, "0-2", "3")]
    public void SplitsTheCoresBetweenTheServerAndTheClient(string args, string available, string? cores, string server, string client)
    {
        var cpus = CpuSet.Parse(available);

        var plan = CpuPlan.Resolve(LoadOptions.Parse(args.Split(' ', StringSplitOptions.RemoveEmptyEntries)), cpus, cores is null ? Singles(cpus) : [.. cores.Split(' ').Select(core => CpuSet.Parse(core))]);

        Assert.Equal((server, client), (plan.Server!.ToString(), plan.Client!.ToString()));
    }

    [Fact]
    public void ReadsTheCoresOfTheMachineItRunsOn()
    {
        var available = CpuSet.Parse("0-3");

        var cores = CpuTopology.Cores(available, cpu => cpu switch { 0 or 2 => CpuSet.Parse("0,2"), 1 or 3 => CpuSet.Parse("1,3"), _ => null });

        Assert.Equal(["0,2", "1,3"], cores.Select(core => core.ToString()));
        Assert.Equal(["0", "1"], CpuTopology.Cores(TwoCpus, _ => null).Select(core => core.ToString()));
    }

    [Fact]
    public void SharesOneCpu()
    {
        var one = CpuSet.Parse("0");

        var plan = CpuPlan.Resolve(LoadOptions.Parse([]), one, [one]);

        Assert.Equal([CpuLayout.Shared], plan.Layouts);
        Assert.Null(plan.ServerCpus(CpuLayout.Shared));
        Assert.Contains("need", Assert.Throws<ArgumentException>(() => CpuPlan.Resolve(LoadOptions.Parse(["--cpu-layout", "split"]), one, [one])).Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(new[] { "--server-cpus", "0-1", "--client-cpus", "1" }, "share CPU 1")]
    [InlineData(new[] { "--server-cpus", "2" }, "may use CPUs 0-1 only")]
    [InlineData(new[] { "--client-cpus", "0-1" }, "leaves no CPU")]
    [InlineData(new[] { "--server-cpus", "0-1" }, "leaves no CPU")]
    [InlineData(new[] { "--cpu-layout", "shared", "--server-cpus", "0" }, "add split to --cpu-layout")]
    public void RefusesASplitThatCannotBeMade(string[] args, string reason)
    {
        var error = Assert.Throws<ArgumentException>(() => OnTwoCpus(args));

        Assert.Contains(reason, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void MeasuresBothLayoutsTheFirstOneNamedFirst()
    {
        var plan = OnTwoCpus("--cpu-layout", "split,shared");
        var sharedFirst = OnTwoCpus("--cpu-layout", "shared,split");

        Assert.Equal([CpuLayout.Split, CpuLayout.Shared], plan.Layouts);
        Assert.Equal((CpuLayout.Split, true), (plan.Primary, plan.Compares));
        Assert.Equal(CpuLayout.Shared, sharedFirst.Primary);
        Assert.Null(plan.ServerCpus(CpuLayout.Shared));
        Assert.Equal(TwoCpus, plan.ClientCpus(CpuLayout.Shared));
        Assert.Contains("the server on CPU 0 (started under taskset -c 0, DOTNET_PROCESSOR_COUNT=1), the load client on CPU 1", plan.Describe(), StringComparison.Ordinal);
        Assert.Contains("shared: the server and the load client both on CPUs 0-1", plan.Describe(), StringComparison.Ordinal);
    }

    [Fact]
    public void PlacesOnlyTheClientOfAServerItDidNotStart()
    {
        var placed = OnTwoCpus("--url", "http://127.0.0.1:8080", "--client-cpus", "1");
        var unplaced = OnTwoCpus("--url", "http://127.0.0.1:8080");

        Assert.Equal((null, "1"), (placed.ServerCpus(placed.Primary), placed.ClientCpus(placed.Primary)!.ToString()));
        Assert.Equal((null, TwoCpus), (unplaced.ServerCpus(unplaced.Primary), unplaced.ClientCpus(unplaced.Primary)));
    }

    [Fact]
    public void SharesWhereAffinityIsUnknownAndRefusesToPin()
    {
        Assert.Equal([CpuLayout.Shared], CpuPlan.Resolve(LoadOptions.Parse([]), null).Layouts);
        Assert.Throws<ArgumentException>(() => CpuPlan.Resolve(LoadOptions.Parse(["--server-cpus", "0"]), null));
    }

    /// <summary>The plan for <paramref name="args"/> on a machine of two single-threaded cores, CPUs 0 and 1.</summary>
    internal static CpuPlan OnTwoCpus(params string[] args) =>
        CpuPlan.Resolve(LoadOptions.Parse(args), TwoCpus, Singles(TwoCpus));

    private static CpuSet[] Singles(CpuSet cpus) => [.. cpus.Cpus.Select(cpu => CpuSet.Of([cpu]))];
}
