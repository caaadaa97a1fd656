using System.Runtime.InteropServices;

namespace WebSerialization.Load.Running;

/// <summary>The token that stops a run: the overall timeout, Ctrl+C, or a CI job's or a terminal's end. Without handling SIGTERM
/// the runtime would exit and leave the server running; handled, the server is killed and the summary written.</summary>
internal sealed class RunStop : IDisposable
{
    private readonly CancellationTokenSource stop;
    private readonly PosixSignalRegistration[] signals;

    public RunStop(TimeSpan after)
    {
        Timeout = after;
        stop = new CancellationTokenSource(after);
        signals = [.. new[] { PosixSignal.SIGINT, PosixSignal.SIGTERM, PosixSignal.SIGHUP }.Select(signal => PosixSignalRegistration.Create(signal, Interrupt))];
    }

    public CancellationToken Token => stop.Token;

    public bool IsCancellationRequested => stop.IsCancellationRequested;

    public TimeSpan Timeout { get; }

    /// <summary>The signal that stopped the run, or null when it was not stopped by one.</summary>
    public string? InterruptedBy { get; private set; }

    public void Dispose()
    {
        foreach (var signal in signals)
            signal.Dispose();

        stop.Dispose();
    }

    private void Interrupt(PosixSignalContext context)
    {
        context.Cancel = true;
        InterruptedBy ??= context.Signal.ToString();
        stop.Cancel();
    }
}
