using System.Xml.Linq;

namespace WebSerialization.Load.Reports;

/// <summary>A horizontal bar chart, drawn as SVG here rather than by a charting package. Each panel has its own axis: a
/// 1,000,000-member download is a hundred times a 10,000-member one, and on one scale the small bars would vanish.
/// Every text goes into the XML tree as text or attribute values, so the XML writer escapes it.</summary>
/// <param name="AxisTitle">Under each panel's axis of values: the measure and its unit.</param>
/// <param name="CategoryTitle">Beside the bars' labels: what they are (e.g. format).</param>
/// <param name="BarName">What a bar's length is (e.g. p50), for the legend.</param>
/// <param name="MarkNames">What each bar's marks are (e.g. p95, p99); none for plain bars.</param>
/// <param name="RangeName">What the bars' whiskers are (e.g. the p50 range of the runs), for the legend; null when no bar has one.</param>
public sealed record BarChart(string FileName, string Title, string AxisTitle, string CategoryTitle, string BarName, IReadOnlyList<string> MarkNames, IReadOnlyList<BarChartPanel> Panels, string? RangeName = null)
{
    private const int Width = 800;
    private const int LabelRight = 112;
    private const int PlotLeft = 120;
    private const int PlotWidth = 400;
    private const int ValueLeft = PlotLeft + PlotWidth + 12;
    private const int TitleHeight = 32;
    private const int LegendHeight = 22;
    private const int PanelTitleHeight = 24;
    private const int RowHeight = 22;
    private const int BarHeight = 14;
    private const int AxisHeight = 40;
    private const int PanelGap = 12;
    private const int WhiskerCap = 5;
    private const string Ink = "#222222";

    // Okabe-Ito: told apart with the common colour blindnesses, and on grey-scale print.
    private static readonly string[] Palette = ["#E69F00", "#56B4E9", "#009E73", "#0072B2", "#CC79A7", "#D55E00"];

    // The first mark solid, the next ones dashed, so p95 and p99 differ without colour.
    private static readonly string[] MarkDashes = ["none", "4 2", "1 2"];

    private static readonly XNamespace Svg = "http://www.w3.org/2000/svg";
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>The chart as an <c>svg</c> element, for a file of its own or inline in HTML.</summary>
    public XElement ToSvg()
    {
        var content = new List<XElement> { Text(8, 21, Title, "start", ("font-size", "15"), ("font-weight", "bold")), Legend(TitleHeight) };
        var top = TitleHeight + LegendHeight;
        foreach (var panel in Panels)
        {
            content.Add(Panel(panel, top));
            top += PanelTitleHeight + (panel.Bars.Count * RowHeight) + AxisHeight + PanelGap;
        }

        return new XElement(
            Svg + "svg",
            new XAttribute("width", Width),
            new XAttribute("height", top),
            new XAttribute("viewBox", string.Create(Invariant, $"0 0 {Width} {top}")),
            new XAttribute("role", "img"),
            new XAttribute("font-family", "sans-serif"),
            new XAttribute("font-size", "12"),
            new XElement(Svg + "title", Title),
            new XElement(Svg + "rect", new XAttribute("width", "100%"), new XAttribute("height", "100%"), new XAttribute("fill", "white")),
            content);
    }

    /// <summary>The axis from 0 to at least <paramref name="largest"/>: steps of 1, 2 or 5 times a power of ten, 2 to 5 of them.</summary>
    public static (double Step, double End) Axis(double largest)
    {
        var highest = largest > 0 && double.IsFinite(largest) ? largest : 1;
        var rough = highest / 5;
        var magnitude = Math.Pow(10, Math.Floor(Math.Log10(rough)));
        var step = (rough / magnitude) switch { <= 1 => 1, <= 2 => 2, <= 5 => 5, _ => 10 } * magnitude;

        // Rounding may leave highest / step a hair above a whole number; that must not add an empty step.
        return (step, Math.Ceiling((highest / step) - 1e-9) * step);
    }

    // The heading of the labels' column (the category axis), then what a bar and its marks are.
    private XElement Legend(int top)
    {
        var legend = new XElement(Svg + "g", new XAttribute("class", "legend"), Text(LabelRight, top + 14, CategoryTitle, "end", ("font-style", "italic")));
        legend.Add(new XElement(Svg + "rect", Position(PlotLeft, top + 4, 18, BarHeight - 4), new XAttribute("fill", "#888888")), Text(PlotLeft + 24, top + 14, BarName, "start"));
        var x = PlotLeft + 24 + 60;
        foreach (var (name, index) in MarkNames.Select((name, index) => (name, index)))
        {
            legend.Add(Mark(x + 4, top + 1, top + 19, index), Text(x + 12, top + 14, name, "start"));
            x += 72;
        }

        if (RangeName is not null)
            legend.Add(Whisker(x, x + 18, top + 11, RangeName), Text(x + 24, top + 14, RangeName, "start"));

        return legend;
    }

    private XElement Panel(BarChartPanel panel, int top)
    {
        var (step, end) = Axis(panel.Bars.Select(bar => bar.Marks.Append(bar.Value).Append(bar.Range?.High ?? 0).Max()).DefaultIfEmpty(0).Max());
        double X(double value) => PlotLeft + (Math.Clamp(value / end, 0, 1) * PlotWidth);
        var barsTop = top + PanelTitleHeight;
        var barsBottom = barsTop + (panel.Bars.Count * RowHeight);
        var group = new XElement(Svg + "g", new XAttribute("class", "panel"), Text(8, top + 17, panel.Title, "start", ("font-weight", "bold")));
        for (var index = 0; index <= (int)Math.Round(end / step); index++)
        {
            var x = X(index * step);
            group.Add(Line(x, barsTop, x, barsBottom + 4, "#DDDDDD"), Text(x, barsBottom + 17, (index * step).ToString("0.####", Invariant), "middle", ("fill", "#444444")));
        }

        group.Add(
            Line(PlotLeft, barsBottom, PlotLeft + PlotWidth, barsBottom, "#444444"),
            Line(PlotLeft, barsTop, PlotLeft, barsBottom, "#444444"),
            Text(PlotLeft + (PlotWidth / 2), barsBottom + 33, AxisTitle, "middle"));
        foreach (var (bar, row) in panel.Bars.Select((bar, row) => (bar, row)))
        {
            var rowTop = barsTop + (row * RowHeight);
            var middle = rowTop + (RowHeight / 2);
            group.Add(Text(LabelRight, rowTop + 15, bar.Label, "end"), new XElement(
                Svg + "rect",
                new XAttribute("class", "bar"),
                Position(PlotLeft, rowTop + ((RowHeight - BarHeight) / 2), X(bar.Value) - PlotLeft, BarHeight),
                new XAttribute("fill", Palette[bar.ColorIndex % Palette.Length]),
                new XElement(Svg + "title", $"{bar.Label}: {bar.ValueText}")));
            if (bar.Marks.Count > 0)
                group.Add(Line(X(bar.Value), middle, X(bar.Marks.Max()), middle, Ink), bar.Marks.Select((mark, index) => Mark(X(mark), rowTop + 2, rowTop + RowHeight - 2, index)));

            if (bar.Range is { } range)
                group.Add(Whisker(X(range.Low), X(range.High), middle, $"{bar.Label}: {RangeName ?? "range"} {range.ToString("0.#")}"));

            group.Add(Text(ValueLeft, rowTop + 15, bar.ValueText, "start"));
        }

        return group;
    }

    private static XElement Mark(double x, double top, double bottom, int index) =>
        Line(x, top, x, bottom, Ink, new XAttribute("class", "mark"), new XAttribute("stroke-width", "2"), new XAttribute("stroke-dasharray", MarkDashes[Math.Min(index, MarkDashes.Length - 1)]));

    // A thick line with end caps shorter than the marks, so that a spread reads apart from the p95 and p99 ticks.
    private static XElement Whisker(double low, double high, double middle, string title) => new(
        Svg + "g",
        new XAttribute("class", "range"),
        new XAttribute("stroke-width", "2"),
        new XElement(Svg + "title", title),
        Line(low, middle, high, middle, Ink),
        Line(low, middle - WhiskerCap, low, middle + WhiskerCap, Ink),
        Line(high, middle - WhiskerCap, high, middle + WhiskerCap, Ink));

    private static XElement Line(double x1, double y1, double x2, double y2, string stroke, params XAttribute[] more) =>
        new(Svg + "line", new XAttribute("x1", Number(x1)), new XAttribute("y1", Number(y1)), new XAttribute("x2", Number(x2)), new XAttribute("y2", Number(y2)), new XAttribute("stroke", stroke), more);

    private static XAttribute[] Position(double x, double y, double width, double height) =>
        [new("x", Number(x)), new("y", Number(y)), new("width", Number(width)), new("height", Number(height))];

    private static XElement Text(double x, double y, string text, string anchor, params (string Name, string Value)[] style) =>
        new(Svg + "text", new XAttribute("x", Number(x)), new XAttribute("y", Number(y)), new XAttribute("text-anchor", anchor), style.Select(attribute => new XAttribute(attribute.Name, attribute.Value)), text);

    private static string Number(double value) => value.ToString("0.##", Invariant);
}

/// <summary>One bar of a <see cref="BarChart"/>.</summary>
/// <param name="ColorIndex">Picks the bar's colour, so that one format has one colour in every panel and chart.</param>
/// <param name="Marks">Further values drawn across the bar as ticks (p95, p99), in the order of <see cref="BarChart.MarkNames"/>.</param>
/// <param name="ValueText">The figures written right of the bar.</param>
/// <param name="Range">A spread drawn across the bar as a whisker (the p50 of the slowest and fastest runs); null for none.</param>
public sealed record BarChartBar(string Label, int ColorIndex, double Value, IReadOnlyList<double> Marks, string ValueText, Spread? Range = null);

/// <summary>A group of bars with its own scale, e.g. every format's download of 10,000 members with 1 copy.</summary>
public sealed record BarChartPanel(string Title, IReadOnlyList<BarChartBar> Bars);
