using Spectre.Console;

namespace WebSerialization.Load.Tests;

public sealed class ConsoleSummaryTests
{
    [Fact]
    public void RendersTheSummaryAndTheTargetsAsTablesWithTheReportsFigures()
    {
        var results = SampleRun.Results();
        var summary = ReportContent.Summary(results);
        TargetVerdict[] targets = [new("Binary is the fastest download", "binary 5 ms against json 40 ms", TargetVerdict.Pass)];

        var text = Write(ConsoleSummary.Render(results, [], targets));

        foreach (var row in summary.Rows)
        {
            Assert.Contains(row[0], text, StringComparison.Ordinal);
        }

        Assert.Contains("Binary is the fastest download", text, StringComparison.Ordinal);
        Assert.Contains(TargetVerdict.Pass, text, StringComparison.Ordinal);
        Assert.Contains("│", text, StringComparison.Ordinal);
    }

    [Fact]
    public void ShowsOnlyTheColumnsAReaderCompares()
    {
        var screen = ReportContent.ScreenSummary(SampleRun.Results());

        Assert.Equal(["Scenario", "Copies", "OK/failed", "Size MB", "p50 ms", "p99 ms", "MB/s", "Server MB/req", "WS rise MB"], screen.Columns);
        Assert.Equal(ReportContent.Summary(SampleRun.Results()).Rows.Select(row => row[0]), screen.Rows.Select(row => row[0]));
    }

    [Fact]
    public void PutsTheTargetsThisRunDidNotJudgeOnOneLine()
    {
        TargetVerdict[] targets =
        [
            new("Binary is the fastest download", "binary 5 ms against json 40 ms", TargetVerdict.Pass),
            new("Uploads hold their working set", "not run", TargetVerdict.NotRun),
            new("Converts hold their working set", "not run", TargetVerdict.NotRun),
        ];

        var text = Write(ConsoleSummary.Render(SampleRun.Results(), [], targets));

        Assert.DoesNotContain("Uploads hold their working set", text, StringComparison.Ordinal);
        Assert.DoesNotContain(TargetVerdict.NotRun, text, StringComparison.Ordinal);
        Assert.Contains("2 targets were not run by this selection", text, StringComparison.Ordinal);
        Assert.Contains("--scenarios", text, StringComparison.Ordinal);
    }

    [Fact]
    public void WritesCellsAsTextNotMarkup()
    {
        var table = ConsoleSummary.Table("t", new ReportTable(["Scenario", "p50 ms"], 1, [["download-[json]", "12"]]));

        Assert.Contains("download-[json]", Write([table]), StringComparison.Ordinal);
    }

    private static string Write(IEnumerable<Spectre.Console.Rendering.IRenderable> renderables)
    {
        var output = new StringWriter();
        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Ansi = AnsiSupport.No,
            ColorSystem = ColorSystemSupport.NoColors,
            Out = new AnsiConsoleOutput(output),
        });
        console.Profile.Width = 400;
        foreach (var renderable in renderables)
        {
            console.Write(renderable);
        }

        return output.ToString();
    }
}
