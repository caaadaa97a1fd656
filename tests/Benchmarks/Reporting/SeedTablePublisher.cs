using WebSerialization.Benchmarks.Contenders;

namespace WebSerialization.Benchmarks.Reporting;

/// <summary>
/// The post-run step: regroups BenchmarkDotNet's results into the seed's table, evaluates the targets, prints both,
/// writes them to the artifacts, and to docs/results/benchmarks.md after a complete full run.
/// </summary>
public static class SeedTablePublisher
{
    /// <returns>The exit code: 1 when a benchmark failed (missed targets do not fail the run; times on a shared machine are noisy).</returns>
    public static int Publish(RunRecord run, IReadOnlyList<OrganizationSerializer> lineup, PayloadCatalog catalog, TextWriter log)
    {
        ArgumentNullException.ThrowIfNull(run);
        ArgumentNullException.ThrowIfNull(log);
        var results = BenchmarkResults.From(run, lineup, catalog);
        var targets = TargetEvaluation.Evaluate(results);
        var section = SeedTableReport.Render(results, targets, run);

        var artifact = Path.Combine(RepositoryPaths.Artifacts, "results", "seed-table.md");
        Directory.CreateDirectory(Path.GetDirectoryName(artifact)!);
        File.WriteAllText(artifact, section);

        log.WriteLine();
        log.WriteLine("// * Targets *");
        if (!run.IsFullRun)
        {
            log.WriteLine(SeedTableReport.NotAMeasurement(run.MemberCount, run.Dry, run.Rows));
        }

        foreach (var target in targets)
        {
            log.WriteLine(target);
            if (target.Obstacle is not null)
            {
                log.WriteLine($"     What stands in the way: {target.Obstacle}");
            }
        }

        log.WriteLine();
        log.WriteLine($"Seed-shaped table: {artifact}");
        if (run.IsFullRun && results.IsComplete)
        {
            Directory.CreateDirectory(Path.GetDirectoryName(RepositoryPaths.ResultsDocument)!);
            File.WriteAllText(RepositoryPaths.ResultsDocument, section);
            log.WriteLine($"Wrote {RepositoryPaths.ResultsDocument}");
        }
        else
        {
            log.WriteLine("docs/results/benchmarks.md left as it was: only a complete, non-dry run of 1,000,000 members replaces it.");
        }

        foreach (var failure in results.Failures)
        {
            log.WriteLine($"FAILED {failure}");
        }

        return results.Failures.Count == 0 ? 0 : 1;
    }
}
