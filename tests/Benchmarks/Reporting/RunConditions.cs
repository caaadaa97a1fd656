namespace WebSerialization.Benchmarks.Reporting;

/// <summary>
/// What shared the machine with a run, for the results header: the CPUs the benchmark processes could use and the
/// load average when the run ended. Read from Linux's procfs; "unknown" elsewhere.
/// </summary>
internal static class RunConditions
{
    /// <summary>One Markdown list item per condition.</summary>
    public static IEnumerable<string> HeaderLines()
    {
        yield return $"- **CPUs**: {Read("/proc/self/status", StatusCpus)}, the runner's affinity, which the benchmarks run under (nothing pins them to fewer)";
        yield return $"- **Load**: `/proc/loadavg` when the run ended: {Read("/proc/loadavg", text => text.Trim())} (the machine's other work competes for its cores)";
    }

    private static string StatusCpus(string status)
    {
        const string Key = "Cpus_allowed_list:";
        var line = status.Split('\n').FirstOrDefault(candidate => candidate.StartsWith(Key, StringComparison.Ordinal));
        return line is null ? "unknown" : $"CPUs {line[Key.Length..].Trim()}";
    }

    private static string Read(string path, Func<string, string> parse)
    {
        try
        {
            return parse(File.ReadAllText(path));
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            return "unknown";
        }
    }
}
