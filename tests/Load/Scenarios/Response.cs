namespace WebSerialization.Load.Scenarios;

/// <summary>
/// What one invocation of a scenario, or one step of it, returns: NBomber's <c>Response.Ok</c> / <c>Response.Fail</c>.
/// The engine records <see cref="SizeBytes"/> as bytes received and <see cref="BytesSent"/> as bytes sent (NBomber keeps
/// one <c>sizeBytes</c> for both); a failed response counts under its <see cref="Message"/>, the reports' failure reason.
/// </summary>
/// <param name="StatusCode">The HTTP status, 200 for a gRPC call that ended OK, or 0 when no answer came.</param>
/// <param name="SizeBytes">Bytes received (a response body, gRPC messages).</param>
/// <param name="BytesSent">Bytes sent (a request body).</param>
public record Response(bool IsError, int StatusCode, long SizeBytes, long BytesSent, string? Message)
{
    public static Response Ok(int statusCode = 200, long sizeBytes = 0, long bytesSent = 0) =>
        new(false, statusCode, sizeBytes, bytesSent, null);

    /// <summary>A success that hands <paramref name="payload"/> to the code after it (a step's result, NBomber's <c>Response&lt;T&gt;</c>).</summary>
    public static Response<T> Ok<T>(T payload, int statusCode = 200, long sizeBytes = 0, long bytesSent = 0) =>
        new(payload, false, statusCode, sizeBytes, bytesSent, null);

    public static Response Fail(string message, int statusCode = 0, long sizeBytes = 0, long bytesSent = 0) =>
        new(true, statusCode, sizeBytes, bytesSent, message);

    public static Response<T> Fail<T>(string message, int statusCode = 0, long sizeBytes = 0, long bytesSent = 0) =>
        new(default, true, statusCode, sizeBytes, bytesSent, message);

    /// <summary>An HTTP answer's failure reason, as the reports print it: <c>HTTP 503 Service Unavailable</c>.</summary>
    public static string HttpStatusMessage(int statusCode, string? reasonPhrase) =>
        string.Create(CultureInfo.InvariantCulture, $"HTTP {statusCode} {reasonPhrase}");
}

public sealed record Response<T>(T? Payload, bool IsError, int StatusCode, long SizeBytes, long BytesSent, string? Message)
    : Response(IsError, StatusCode, SizeBytes, BytesSent, Message);
