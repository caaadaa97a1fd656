using System.Buffers;
using System.Globalization;
using System.Text;
using System.Text.Json;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Logging.Console;
using Microsoft.Extensions.Options;

namespace WebSerialization.Api.Diagnostics;

/// <summary>
/// The console's JSON line without repeats: Timestamp, EventId, LogLevel, Category, Message, Exception, and Scopes
/// only when <c>IncludeScopes</c> is set. The stock <c>json</c> formatter also writes every field of the message a
/// second time under <c>State</c>, which doubles a request line. Takes the <c>json</c> formatter's options
/// (<c>Logging:Console:FormatterOptions</c>), so switching between the two keeps the timestamp settings.
/// </summary>
public sealed class CompactJsonConsoleFormatter : ConsoleFormatter, IDisposable
{
    /// <summary>The value of <c>Logging:Console:FormatterName</c> that selects it.</summary>
    public const string FormatterName = "compact-json";

    private readonly IDisposable? _reload;
    private JsonConsoleFormatterOptions _options;

    /// <summary>Follows the options as they are reloaded.</summary>
    public CompactJsonConsoleFormatter(IOptionsMonitor<JsonConsoleFormatterOptions> options)
        : base(FormatterName)
    {
        ArgumentNullException.ThrowIfNull(options);
        _options = options.CurrentValue;
        _reload = options.OnChange(changed => _options = changed);
    }

    /// <inheritdoc />
    public override void Write<TState>(in LogEntry<TState> logEntry, IExternalScopeProvider? scopeProvider, TextWriter textWriter)
    {
        ArgumentNullException.ThrowIfNull(textWriter);
        var message = logEntry.Formatter?.Invoke(logEntry.State, logEntry.Exception);
        if (message is null && logEntry.Exception is null)
        {
            return;
        }

        var options = _options;
        var buffer = new ArrayBufferWriter<byte>(512);
        using (var writer = new Utf8JsonWriter(buffer, options.JsonWriterOptions))
        {
            writer.WriteStartObject();
            if (options.TimestampFormat is { } timestampFormat)
            {
                var now = options.UseUtcTimestamp ? DateTimeOffset.UtcNow : DateTimeOffset.Now;
                writer.WriteString("Timestamp", now.ToString(timestampFormat, CultureInfo.InvariantCulture));
            }

            writer.WriteNumber("EventId", logEntry.EventId.Id);
            writer.WriteString("LogLevel", logEntry.LogLevel.ToString());
            writer.WriteString("Category", logEntry.Category);
            writer.WriteString("Message", message);
            if (logEntry.Exception is { } exception)
            {
                writer.WriteString("Exception", exception.ToString());
            }

            if (options.IncludeScopes && scopeProvider is not null)
            {
                writer.WriteStartArray("Scopes");
                scopeProvider.ForEachScope(WriteScope, writer);
                writer.WriteEndArray();
            }

            writer.WriteEndObject();
        }

        textWriter.Write(Encoding.UTF8.GetString(buffer.WrittenSpan));
        textWriter.Write(Environment.NewLine);
    }

    /// <inheritdoc />
    public void Dispose() => _reload?.Dispose();

    // A scope of name/value pairs (ASP.NET Core's request and connection scopes) is an object, any other its text.
    private static void WriteScope(object? scope, Utf8JsonWriter writer)
    {
        if (scope is IEnumerable<KeyValuePair<string, object?>> pairs)
        {
            writer.WriteStartObject();
            foreach (var (key, value) in pairs)
            {
                writer.WriteString(key, Convert.ToString(value, CultureInfo.InvariantCulture));
            }

            writer.WriteEndObject();
        }
        else
        {
            writer.WriteStringValue(Convert.ToString(scope, CultureInfo.InvariantCulture));
        }
    }
}
