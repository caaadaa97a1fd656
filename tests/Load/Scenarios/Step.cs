using System.Diagnostics;

namespace WebSerialization.Load.Scenarios;

/// <summary>
/// A measured part of an invocation, NBomber's <c>Step.Run("name", context, async () =&gt; ...)</c>: its time, size and
/// outcome are recorded under its name, beside the invocation's own figures. A step that fails ends the invocation,
/// which then fails with the step's response and its name in the reason.
/// </summary>
public static class Step
{
    public static async Task<T> Run<T>(string name, ScenarioContext context, Func<Task<T>> run)
        where T : Response
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        var started = Stopwatch.GetTimestamp();
        T response;
        try
        {
            response = await run();
        }
        catch (Exception exception) when (exception is not StepFailedException)
        {
            context.Record(new StepSample(name, Stopwatch.GetElapsedTime(started), 0, 0, FailureText.Of(exception, context)));
            throw;
        }

        context.Record(new StepSample(name, Stopwatch.GetElapsedTime(started), response.SizeBytes, response.BytesSent, response.IsError ? response.Message ?? "failed" : null));
        return response.IsError ? throw new StepFailedException(name, response) : response;
    }
}

/// <summary>Ends an invocation whose step failed; the engine records the step's response as the invocation's.</summary>
public sealed class StepFailedException(string stepName, Response response)
    : Exception($"step {stepName} failed: {response.Message}")
{
    public string StepName { get; } = stepName;

    public Response Response { get; } = response;
}
