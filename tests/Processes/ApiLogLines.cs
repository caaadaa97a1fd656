using System.Text.Json;

namespace WebSerialization.Tests.Processes;

/// <summary>Reads the lines a Production API process writes: one compact JSON object each (docs/configuration.md, "Logs").</summary>
public static class ApiLogLines
{
    /// <summary>The lines logged at Error or Critical; lines that are not a log entry (a crash on stderr) count too.</summary>
    public static IReadOnlyList<string> Errors(IEnumerable<string> lines) => [.. lines.Where(IsErrorOrWorse)];

    private static bool IsErrorOrWorse(string line)
    {
        if (string.IsNullOrWhiteSpace(line))
        {
            return false;
        }

        try
        {
            using var entry = JsonDocument.Parse(line);
            return !entry.RootElement.TryGetProperty("LogLevel", out var level) || level.GetString() is "Error" or "Critical";
        }
        catch (JsonException)
        {
            return true;
        }
    }
}
