using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Toolchains.InProcess.Emit;
using Perfolizer.Horology;

namespace WebSerialization.Benchmarks;

/// <summary>
/// The options this program reads itself (tests/Benchmarks/README.md); the rest goes to BenchmarkDotNet. Its benchmark
/// processes are separate, so the member count and the row selection reach them as environment variables.
/// </summary>
public sealed record BenchmarkCommandLine(bool Dry, int MemberCount, string? Rows, RepeatedOperation? Repeat, Comparison? Comparison, IReadOnlyList<string> BenchmarkArguments)
{
    // The members of a dry run: enough to cross every buffer and chunk boundary, small enough for seconds.
    private const int DryMemberCount = 10_000;

    private const string MemberCountVariable = "WEBSERIALIZATION_BENCHMARK_MEMBERS";
    private const string RowsVariable = "WEBSERIALIZATION_BENCHMARK_ROWS";

    // Measured iterations per benchmark in the full run: a deserialization's time varies with where the collector happens
    // to be, and the median of 15 orders rows whose ranges overlap more reliably than a handful of samples.
    private const int IterationCount = 15;

    /// <summary>The members of the generated organization in a benchmark process: the seed's 1,000,000 unless the variable says otherwise.</summary>
    public static int BenchmarkMemberCount =>
        int.TryParse(Environment.GetEnvironmentVariable(MemberCountVariable), NumberStyles.None, CultureInfo.InvariantCulture, out var count)
            ? count
            : OrganizationGenerator.ArticleMemberCount;

    /// <summary>True when <paramref name="rowName"/> is selected by <c>--rows</c>: no selection, or it contains one of the parts (ignoring case).</summary>
    public static bool IsSelected(string rowName)
    {
        var rows = Environment.GetEnvironmentVariable(RowsVariable);
        return string.IsNullOrWhiteSpace(rows)
            || rows.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).Any(part => rowName.Contains(part, StringComparison.OrdinalIgnoreCase));
    }

    public static BenchmarkCommandLine Parse(string[] args)
    {
        var dry = false;
        Comparison? comparison = null;
        int? members = null;
        string? rows = null;
        RepeatedOperation? repeat = null;
        var rest = new List<string>();
        for (var i = 0; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "--dry":
                    dry = true;
                    break;
                case var flag when Comparison.All.FirstOrDefault(known => known.Flag == flag) is { } chosen:
                    comparison = chosen;
                    break;
                case "--members" when i + 1 < args.Length
                    && int.TryParse(args[i + 1], NumberStyles.AllowThousands, CultureInfo.InvariantCulture, out var count) && count >= 0:
                    members = count;
                    i++;
                    break;
                case "--members":
                    throw new ArgumentException("--members needs a whole number of members, such as --members 10000.");
                case "--rows" when i + 1 < args.Length:
                    rows = args[++i];
                    break;
                case "--rows":
                    throw new ArgumentException("--rows needs parts of row names, such as --rows Binary,seed.");
                case "--repeat" when i + 3 < args.Length
                    && args[i + 2] is "serialize" or "deserialize" or "summarize"
                    && int.TryParse(args[i + 3], NumberStyles.None, CultureInfo.InvariantCulture, out var times):
                    repeat = new RepeatedOperation(args[i + 1], args[i + 2], times);
                    i += 3;
                    break;
                case "--repeat":
                    throw new ArgumentException("--repeat needs a row, an operation and a count, such as --repeat \"Binary stream\" deserialize 12.");
                default:
                    rest.Add(args[i]);
                    break;
            }
        }

        // Without a filter BenchmarkDotNet asks interactively which benchmarks to run; everything is meant.
        if (!rest.Any(arg => arg is "--filter" or "-f" or "--list" or "--help" or "-h" or "--version" or "--info"))
        {
            rest.AddRange(["--filter", "*"]);
        }

        return new BenchmarkCommandLine(dry, members ?? (dry ? DryMemberCount : OrganizationGenerator.ArticleMemberCount), rows, repeat, comparison, rest);
    }

    /// <summary>Hands the member count and the row selection to this process's benchmarks (and the processes it starts).</summary>
    public void SetEnvironment()
    {
        Environment.SetEnvironmentVariable(MemberCountVariable, MemberCount.ToString(CultureInfo.InvariantCulture));
        Environment.SetEnvironmentVariable(RowsVariable, Rows);
    }

    /// <summary>
    /// The configuration of a run. Dry: BenchmarkDotNet's Dry job in this process (no generated projects). Full: one
    /// process per benchmark, 1 warm-up and <see cref="IterationCount"/> iterations of one operation each; the seed
    /// table's job is named Seed and carries the row selection too, and its table has room for the longest row name.
    /// </summary>
    public ManualConfig CreateConfig(bool seedTable)
    {
        var style = SummaryStyle.Default.WithTimeUnit(TimeUnit.Millisecond);
        EnvironmentVariable members = new(MemberCountVariable, MemberCount.ToString(CultureInfo.InvariantCulture));
        var full = Job.Default
            .WithLaunchCount(1)
            .WithWarmupCount(1)
            .WithIterationCount(IterationCount)

            // One operation is the whole organization, long enough to time alone: no repeats within an iteration, no pilot stage.
            .WithInvocationCount(1)
            .WithUnrollFactor(1)

            // Blocking GC: a background collector competes with the deserialization it collects after for the
            // machine's cores, which makes a row's time depend on the core count more than on its code.
            .WithGcConcurrent(false)
            .WithEnvironmentVariables(seedTable ? [members, new EnvironmentVariable(RowsVariable, Rows ?? string.Empty)] : [members]);
        return ManualConfig.Create(DefaultConfig.Instance)
            .AddJob(Dry ? Job.Dry.WithToolchain(InProcessEmitToolchain.Instance) : seedTable ? full.WithId("Seed") : full)
            .AddColumn(StatisticColumn.Median, StatisticColumn.Min, StatisticColumn.Max)
            .WithSummaryStyle(seedTable ? style.WithMaxParameterColumnWidth(26) : style)
            .WithArtifactsPath(Path.Combine(RepositoryFolder.Root, "BenchmarkDotNet.Artifacts"));
    }
}
