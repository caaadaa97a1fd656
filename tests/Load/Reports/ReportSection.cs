using System.Text;

namespace WebSerialization.Load.Reports;

/// <summary>What a run that compared two ways of serving adds to its reports (<see cref="Cpus.CpuLayoutComparison"/>,
/// <see cref="ScaleOut.HAProxyComparison"/>): a heading, a legend and tables, laid out by each report.</summary>
public sealed record ReportSection(string Title, string Legend, IReadOnlyList<ReportTable> Tables)
{
    public string ToMarkdown()
    {
        var md = new StringBuilder().AppendLine(CultureInfo.InvariantCulture, $"## {Title}").AppendLine().AppendLine(Legend);
        foreach (var table in Tables)
            md.AppendLine().Append(table.ToMarkdown());

        return md.ToString();
    }
}
