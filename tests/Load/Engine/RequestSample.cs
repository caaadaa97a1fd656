namespace WebSerialization.Load.Engine;

/// <summary>
/// One request (one invocation of a scenario) as the client saw it. Times are from just before the request was sent: to the first body byte, and
/// to the last (the body drained to its end). A request is <see cref="Succeeded"/> only with a 2xx status and at
/// least one body byte.
/// </summary>
/// <param name="TimeToFirstByte">Until the first body byte arrived; null when none did.</param>
/// <param name="TimeToLastByte">Until the body ended, or the request failed.</param>
/// <param name="BytesReceived">Response body bytes actually read.</param>
/// <param name="StatusCode">The HTTP status, or 0 when no response came.</param>
public readonly record struct RequestSample(
    int Copy,
    TimeSpan StartedAt,
    TimeSpan? TimeToFirstByte,
    TimeSpan TimeToLastByte,
    long BytesSent,
    long BytesReceived,
    int StatusCode,
    string? Error)
{
    public bool Succeeded => Error is null;

    /// <summary>
    /// How long after its intended start the request was sent: in the open model, how late the schedule ran (the
    /// client's own stall, which a latency measured from the send would hide); zero in the closed model.
    /// </summary>
    public TimeSpan ScheduleDelay { get; init; }

    /// <summary>The steps the invocation ran (<see cref="Step.Run"/>), in order; null when it has none.</summary>
    public IReadOnlyList<StepSample>? Steps { get; init; }

    /// <summary>The request's latency: from its intended start to its last byte (<see cref="ScheduleDelay"/> plus <see cref="TimeToLastByte"/>).</summary>
    public TimeSpan Latency => ScheduleDelay + TimeToLastByte;
}
