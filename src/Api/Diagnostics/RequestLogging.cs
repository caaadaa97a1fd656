using Microsoft.Extensions.Logging.Console;

namespace WebSerialization.Api.Diagnostics;

/// <summary>Adds the request log (<see cref="RequestLogMiddleware"/>) and the console format Production writes it in.</summary>
public static class RequestLogging
{
    /// <summary>Registers <see cref="CompactJsonConsoleFormatter"/>; <c>Logging:Console:FormatterName</c> chooses it.</summary>
    public static ILoggingBuilder AddCompactJsonConsole(this ILoggingBuilder logging) =>
        logging.AddConsoleFormatter<CompactJsonConsoleFormatter, JsonConsoleFormatterOptions>();

    /// <summary>Logs every request that reaches this point; call it first so that it sees the bytes as sent.</summary>
    public static IApplicationBuilder UseRequestLogging(this IApplicationBuilder app) => app.UseMiddleware<RequestLogMiddleware>();
}
