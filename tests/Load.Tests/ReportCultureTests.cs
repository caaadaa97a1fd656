namespace WebSerialization.Load.Tests;

public class ReportCultureTests
{
    [Theory]
    [InlineData(MarkdownReport.SummaryFileName)]
    [InlineData(HtmlReport.FileName)]
    [InlineData(FormatCharts.SizesFileName)]
    [InlineData(FormatCharts.LatencyFileName)]
    public void WritesTheSameReportWhateverTheCurrentCulture(string report)
    {
        var invariant = Render(report, CultureInfo.InvariantCulture);

        // A decimal comma, a non-breaking space as group separator, and digits that are not ASCII would all show.
        Assert.Equal(invariant, Render(report, CultureInfo.GetCultureInfo("fr-FR")));
        Assert.Equal(invariant, Render(report, CultureInfo.GetCultureInfo("ar-SA")));
    }

    private static string Render(string report, CultureInfo culture)
    {
        var previous = CultureInfo.CurrentCulture;
        CultureInfo.CurrentCulture = culture;
        try
        {
            var results = SampleRun.Results();
            return report switch
            {
                MarkdownReport.SummaryFileName => MarkdownReportTests.Summary(results: results),
                HtmlReport.FileName => HtmlReportTests.Render(results),
                _ => FormatChartsTests.Chart(report, results),
            };
        }
        finally
        {
            CultureInfo.CurrentCulture = previous;
        }
    }
}
