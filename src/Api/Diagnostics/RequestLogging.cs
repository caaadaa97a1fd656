namespace WebSerialization.Api.Diagnostics;

/// <summary>Adds the one-line-per-request log (<see cref="RequestLogMiddleware"/>).</summary>
public static class RequestLogging
{
    /// <summary>Logs every request that reaches this point; call it first so that it sees the bytes as sent.</summary>
    public static IApplicationBuilder UseRequestLogging(this IApplicationBuilder app) => app.UseMiddleware<RequestLogMiddleware>();
}
