using System.Text.Json;

namespace WebSerialization.Tests.Processes;

/// <summary>Reads the lines a Production API process writes: one compact JSON object each (docs/configuration.md, "Logs").</summary>
public static class ApiLogLines
{
    /// <summary>The entries logged at Error or Critical; lines that are not a JSON object are not log entries.</summary>
    public static IReadOnlyList<string> Errors(IEnumerable<string> lines) => [.. lines.Where(IsErrorOrWorse)];

    private static bool IsErrorOrWorse(string line)
    {
        if (!line.StartsWith('{'))
        {
            return false;
        }

        using var entry = JsonDocument.Parse(line);
        return entry.RootElement.GetProperty("LogLevel").GetString() is "Error" or "Critical";
    }
}
