using Microsoft.AspNetCore.Mvc;

namespace WebSerialization.Api.Baseline;

/// <summary>
/// Runs one of <see cref="Diagnostics.ProblemResponses"/> from MVC. It is not an <see cref="ObjectResult"/> on
/// purpose: MVC would negotiate it, and <c>[FormatFilter]</c> would hand a problem to the MessagePack formatter.
/// </summary>
public sealed class ProblemActionResult(IResult problem) : IActionResult
{
    /// <inheritdoc />
    public Task ExecuteResultAsync(ActionContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        return problem.ExecuteAsync(context.HttpContext);
    }
}
