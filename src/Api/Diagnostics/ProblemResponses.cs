using Microsoft.AspNetCore.Mvc;
using WebSerialization.Api.Formats;
using WebSerialization.Models;

namespace WebSerialization.Api.Diagnostics;

/// <summary>
/// Problem details (RFC 9457) that every client can read: always <c>application/problem+json</c>, whatever the
/// Accept header said, because an error a client cannot decode helps no one.
/// </summary>
public static class ProblemResponses
{
    /// <summary>A problem response with <paramref name="status"/>, a title and a detail.</summary>
    public static IResult Problem(int status, string title, string detail, IDictionary<string, object?>? extensions = null) =>
        new ProblemJsonResult(Create(status, title, detail, extensions));

    /// <summary>406: nothing the client accepts is on offer; lists what is (<paramref name="offered"/>, every format by default).</summary>
    public static IResult NotAcceptable(string detail, IReadOnlyList<WireFormat>? offered = null) =>
        Problem(
            StatusCodes.Status406NotAcceptable,
            "Not Acceptable",
            detail,
            new Dictionary<string, object?>
            {
                ["supportedMediaTypes"] = offered is null ? AcceptHeaderNegotiator.SupportedMediaTypes : AcceptHeaderNegotiator.MediaTypesOf(offered),
                ["formatKeys"] = (offered ?? WireFormat.All).Select(format => format.Key).ToArray(),
            });

    /// <summary>Builds the problem object.</summary>
    public static ProblemDetails Create(int status, string title, string detail, IDictionary<string, object?>? extensions = null)
    {
        var problem = new ProblemDetails
        {
            Status = status,
            Title = title,
            Detail = detail,
            Type = $"https://httpstatuses.io/{status}",
        };
        foreach (var (key, value) in extensions ?? new Dictionary<string, object?>())
        {
            problem.Extensions[key] = value;
        }

        return problem;
    }

    private sealed class ProblemJsonResult(ProblemDetails problem) : IResult
    {
        public Task ExecuteAsync(HttpContext httpContext)
        {
            var writer = httpContext.RequestServices.GetRequiredService<AlwaysJsonProblemDetailsWriter>();
            httpContext.Response.StatusCode = problem.Status ?? StatusCodes.Status500InternalServerError;
            return writer.WriteAsync(new ProblemDetailsContext { HttpContext = httpContext, ProblemDetails = problem }).AsTask();
        }
    }
}
