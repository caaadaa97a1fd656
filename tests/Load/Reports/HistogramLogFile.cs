namespace WebSerialization.Load.Reports;

/// <summary>A histogram log read back (<see cref="HistogramLog.Read"/>): which runner wrote it, and its entries in file order.</summary>
/// <param name="Name">The file, as given to the merge.</param>
/// <param name="Runner">The runner that wrote it: host, process, start time and command line.</param>
/// <param name="Entries">One per scenario and load.</param>
public sealed record HistogramLogFile(string Name, string Runner, IReadOnlyList<HistogramLogEntry> Entries);
