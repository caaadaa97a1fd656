using System.Collections.Concurrent;
using System.Diagnostics;

namespace WebSerialization.Load.Engine;

/// <summary>
/// One phase of one scenario under one load simulation: invokes the scenario's function as the simulation says (copies
/// in loops, or arrivals on a schedule) and turns each invocation into a <see cref="RequestSample"/>: its start, time to
/// first byte, time to its return, bytes sent and received, status, failure reason, and its steps. An exception from
/// the scenario is a failed invocation; the run stopping is not, and ends the phase.
/// </summary>
public static class ScenarioPhase
{
    /// <summary>Log lines kept per phase; the rest are counted.</summary>
    public const int KeptLogLines = 10;

    /// <param name="Samples">Every invocation, dropped ones included.</param>
    /// <param name="Late">Open model: invocations started more than <see cref="InjectLoad.LateAfter"/> after they fell due.</param>
    /// <param name="Elapsed">From the phase's start until its last invocation returned.</param>
    /// <param name="Log">The first <see cref="KeptLogLines"/> lines the invocations logged, and how many more there were.</param>
    public sealed record Outcome(IReadOnlyList<RequestSample> Samples, int Late, TimeSpan Elapsed, IReadOnlyList<string> Log);

    /// <summary>Runs the phase.</summary>
    /// <param name="previousPerSecond">The rate a <see cref="LoadSimulation.RampingInject"/> starts from.</param>
    public static async Task<Outcome> RunAsync(
        LoadScenario scenario,
        ScenarioClients clients,
        LoadSimulation simulation,
        double previousPerSecond,
        string label,
        int maxRequests,
        TimeSpan requestTimeout,
        CancellationToken cancellationToken)
    {
        var log = new ConcurrentQueue<string>();
        var logged = 0;
        void Log(ScenarioContext context, string message)
        {
            if (Interlocked.Increment(ref logged) <= KeptLogLines)
            {
                log.Enqueue(string.Create(CultureInfo.InvariantCulture, $"copy {context.Copy}, invocation {context.InvocationNumber}: {message}"));
            }
        }

        long invocations = 0;
        async Task<RequestSample> InvokeAsync(int copy, long phaseStart)
        {
            using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            timeout.CancelAfter(requestTimeout);
            var started = Stopwatch.GetTimestamp();
            var context = new ScenarioContext(scenario.Name, copy, Interlocked.Increment(ref invocations), clients, requestTimeout, timeout, cancellationToken, Log);
            Response response;
            try
            {
                response = await scenario.Run(context);
            }
            catch (StepFailedException failed)
            {
                response = failed.Response with { Message = $"step {failed.StepName}: {failed.Response.Message}" };
            }
            catch (Exception exception) when (!cancellationToken.IsCancellationRequested)
            {
                response = Response.Fail(FailureText.Of(exception, context));
            }

            var elapsed = Stopwatch.GetElapsedTime(started);
            return new RequestSample(
                copy,
                Stopwatch.GetElapsedTime(phaseStart, started),
                context.TimeToFirstByte ?? (response.IsError ? null : elapsed),
                elapsed,
                response.BytesSent,
                response.SizeBytes,
                response.StatusCode,
                response.IsError ? response.Message ?? "failed" : null)
            {
                Steps = context.Steps,
            };
        }

        Outcome Done(IReadOnlyList<RequestSample> samples, int late, TimeSpan elapsed) =>
            new(samples, late, elapsed, logged > KeptLogLines ? [.. log, string.Create(CultureInfo.InvariantCulture, $"... and {logged - KeptLogLines} more lines")] : [.. log]);

        if (simulation is LoadSimulation.KeepConstant keep)
        {
            var (samples, elapsed) = await KeepConstantLoad.RunAsync(label, keep.Copies, keep.During, maxRequests, InvokeAsync, cancellationToken);
            return Done(samples, 0, elapsed);
        }

        var perSecond = simulation.PerSecond!.Value;
        var schedule = simulation is LoadSimulation.RampingInject
            ? ArrivalSchedule.Ramp(previousPerSecond, perSecond, simulation.During, maxRequests)
            : ArrivalSchedule.Constant(perSecond, simulation.During, maxRequests);
        var progress = new PhaseProgress();
        var (injected, late, injectedElapsed) = await ProgressDisplay.WatchAsync(
            label, simulation.During, progress, InjectLoad.RunAsync(schedule, InvokeAsync, progress, cancellationToken));
        return Done(injected, late, injectedElapsed);
    }
}
