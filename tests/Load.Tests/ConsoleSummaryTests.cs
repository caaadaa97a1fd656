using Spectre.Console;
using Spectre.Console.Rendering;
using static WebSerialization.Load.Tests.MarkdownReportTests;

namespace WebSerialization.Load.Tests;

public sealed class ConsoleSummaryTests
{
    private static readonly TargetVerdict Judged = new("Binary is the fastest download", "binary 5 ms against json 40 ms", TargetVerdict.Pass);

    [Fact]
    public void RendersTheSummaryAndTheTargetsAsTablesWithTheReportsFigures()
    {
        var text = Write(ConsoleSummary.Render(SampleRun.Results(), [], [Judged]));
        ContainsAll(text, [.. ReportContent.Summary(SampleRun.Results()).Rows.Select(row => row[0]), "Binary is the fastest download", TargetVerdict.Pass, "│"]);
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
        var text = Write(ConsoleSummary.Render(SampleRun.Results(), [], [Judged, new("Uploads hold their working set", "not run", TargetVerdict.NotRun), new("Converts hold their working set", "not run", TargetVerdict.NotRun)]));
        Assert.DoesNotContain("Uploads hold their working set", text, StringComparison.Ordinal);
        Assert.DoesNotContain(TargetVerdict.NotRun, text, StringComparison.Ordinal);
        ContainsAll(text, "2 targets were not run by this selection", "--scenarios");
    }

    [Fact]
    public void WritesCellsAsTextNotMarkup() =>
        Assert.Contains("download-[json]", Write([ConsoleSummary.Table("t", new ReportTable(["Scenario", "p50 ms"], 1, [["download-[json]", "12"]]))]), StringComparison.Ordinal);

    private static string Write(IEnumerable<IRenderable> renderables)
    {
        var output = new StringWriter();
        var console = AnsiConsole.Create(new AnsiConsoleSettings { Ansi = AnsiSupport.No, ColorSystem = ColorSystemSupport.NoColors, Out = new AnsiConsoleOutput(output) });
        console.Profile.Width = 400;
        foreach (var renderable in renderables)
            console.Write(renderable);

        return output.ToString();
    }
}
