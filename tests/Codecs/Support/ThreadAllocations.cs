namespace WebSerialization.Codecs.Tests.Support;

/// <summary>Measures what code allocates on the calling thread, for tests that bound allocations per member.</summary>
internal static class ThreadAllocations
{
    /// <summary>
    /// Bytes the action returned by <paramref name="prepare"/> allocates, the least of three measurements, each after
    /// its own preparation (which is not measured).
    /// </summary>
    /// <remarks>
    /// With the test classes running in parallel, one measurement in a process now and then sees a one-off 2-8 KB charged
    /// to its thread by something outside the code measured (it lands in whichever of these tests is measuring at the
    /// time; its source is not found yet). An allocation per member shows in every measurement.
    /// </remarks>
    public static long LeastOfThree(Func<Action> prepare)
    {
        ArgumentNullException.ThrowIfNull(prepare);
        var allocated = long.MaxValue;
        for (var measurement = 0; measurement < 3; measurement++)
        {
            var measured = prepare();
            var before = GC.GetAllocatedBytesForCurrentThread();
            measured();
            allocated = Math.Min(allocated, GC.GetAllocatedBytesForCurrentThread() - before);
        }

        return allocated;
    }
}
