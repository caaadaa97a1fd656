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
