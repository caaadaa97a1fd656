namespace WebSerialization.Load.Scenarios;

/// <summary>An exception that ended an invocation or a step, as one line of the reports' failure reasons.</summary>
public static class FailureText
{
    public static string Of(Exception exception, ScenarioContext context) =>
        exception is OperationCanceledException && context.IsTimedOut ? context.TimeoutMessage
            : exception is HttpRequestException or IOException ? OneLine(exception)
            : $"{exception.GetType().Name}: {OneLine(exception)}";

    /// <summary>The message, with the inner exception's in brackets, on one line.</summary>
    public static string OneLine(Exception exception)
    {
        var message = exception.InnerException is { } inner ? $"{exception.Message} ({inner.Message})" : exception.Message;
        return message.ReplaceLineEndings(" ");
    }
}
