using System.Diagnostics;
using Microsoft.AspNetCore.Http.Json;
using Microsoft.Extensions.Options;

namespace WebSerialization.Api.Diagnostics;

/// <summary>
/// Writes every problem details body as <c>application/problem+json</c>. The built-in writer writes nothing when
/// the Accept header allows no JSON (its CanWrite says no), which would leave a MessagePack-only client with an empty 4xx.
/// Registered ahead of the built-in writer, so status code pages and the exception handler use it too.
/// </summary>
public sealed class AlwaysJsonProblemDetailsWriter(IOptions<JsonOptions> jsonOptions) : IProblemDetailsWriter
{
    /// <inheritdoc />
    public bool CanWrite(ProblemDetailsContext context) => true;

    /// <inheritdoc />
    public ValueTask WriteAsync(ProblemDetailsContext context)
    {
        var problem = context.ProblemDetails;
        var httpContext = context.HttpContext;
        problem.Status ??= httpContext.Response.StatusCode;
        problem.Instance ??= httpContext.Request.Path;
        problem.Extensions.TryAdd("traceId", Activity.Current?.Id ?? httpContext.TraceIdentifier);

        httpContext.Response.ContentLength = null;
        return new ValueTask(httpContext.Response.WriteAsJsonAsync(
            problem,
            jsonOptions.Value.SerializerOptions,
            contentType: WebSerialization.Models.WireMediaTypes.ProblemJson,
            cancellationToken: httpContext.RequestAborted));
    }
}
