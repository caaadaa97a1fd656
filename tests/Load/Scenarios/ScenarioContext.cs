using System.Diagnostics;

namespace WebSerialization.Load.Scenarios;

/// <summary>
/// One invocation's view of the run (NBomber's <c>IScenarioContext</c>): which copy, which invocation, the shared HTTP
/// client and gRPC channel, the invocation's cancellation (its timeout, or the run stopping), a log, and the marks the
/// engine reads back (time to first byte, the steps' figures).
/// </summary>
public sealed class ScenarioContext
{
    private readonly long _started;
    private readonly CancellationTokenSource _timeout;
    private readonly CancellationToken _runStopped;
    private readonly GrpcConnection? _grpc;
    private readonly Action<ScenarioContext, string>? _log;
    private TimeSpan? _firstByte;
    private List<StepSample>? _steps;

    internal ScenarioContext(string scenarioName, int copy, long invocationNumber, ScenarioClients clients, TimeSpan requestTimeout, CancellationTokenSource timeout, CancellationToken runStopped, Action<ScenarioContext, string>? log)
    {
        ScenarioName = scenarioName;
        Copy = copy;
        InvocationNumber = invocationNumber;
        Http = clients.Http;
        _grpc = clients.Grpc;
        RequestTimeout = requestTimeout;
        _timeout = timeout;
        _runStopped = runStopped;
        _log = log;
        _started = Stopwatch.GetTimestamp();
    }

    public string ScenarioName { get; }

    /// <summary>The copy making this invocation, from 0 (NBomber's <c>ScenarioInfo.InstanceNumber</c>); in the open model, the arrival's number.</summary>
    public int Copy { get; }

    public long InvocationNumber { get; }

    /// <summary>The client every copy shares, with the server's address as its base address and no decompression.</summary>
    public HttpClient Http { get; }

    public GrpcConnection Grpc => _grpc ?? throw new InvalidOperationException("This run has no gRPC channel.");

    /// <summary>Fires at the invocation's timeout (<c>--request-timeout</c>) or when the run stops.</summary>
    public CancellationToken CancellationToken => _timeout.Token;

    public TimeSpan RequestTimeout { get; }

    /// <summary>True once the invocation has run out of time (rather than the run stopping).</summary>
    public bool IsTimedOut => _timeout.IsCancellationRequested && !_runStopped.IsCancellationRequested;

    public string TimeoutMessage => $"timed out after {RequestTimeout.TotalSeconds.ToString("0.#", CultureInfo.InvariantCulture)} s";

    /// <summary>Writes a line to the run's output after the phase (the first few of each phase are kept).</summary>
    public void Log(string message) => _log?.Invoke(this, message);

    /// <summary>Marks the first byte of an answer; only the invocation's first mark counts (its time to first byte).</summary>
    public void FirstByteArrived() => _firstByte ??= Stopwatch.GetElapsedTime(_started);

    internal TimeSpan? TimeToFirstByte => _firstByte;

    internal IReadOnlyList<StepSample>? Steps => _steps;

    internal void Record(StepSample step) => (_steps ??= []).Add(step);
}
