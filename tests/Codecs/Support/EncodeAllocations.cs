using System.Buffers;
using WebSerialization.Models;
using WebSerialization.Models.Streaming;

namespace WebSerialization.Codecs.Tests.Support;

/// <summary>Measures what an encoder allocates while it writes members, as the API's stream writer calls it.</summary>
internal static class EncodeAllocations
{
    private const int Batch = 64;

    /// <summary>
    /// Bytes allocated writing every batch of 64 members after the first, into an output that never has to grow: the
    /// first batch runs the code paths once (JIT, statics) and is not measured.
    /// </summary>
    /// <remarks>
    /// The least of three measurements: with the test classes running in parallel, one measurement in a process now and
    /// then sees a one-off 2-8 KB charged to its thread by something outside the encoder (it lands in whichever of these
    /// tests is measuring at the time; its source is not found yet). An allocation per member shows in every measurement.
    /// </remarks>
    public static long AfterTheFirstBatch(IWireFormatCodec codec, Organization organization)
    {
        ArgumentNullException.ThrowIfNull(codec);
        ArgumentNullException.ThrowIfNull(organization);
        var members = organization.Members!.ToArray();
        var allocated = long.MaxValue;
        for (var measurement = 0; measurement < 3; measurement++)
        {
            var output = new ArrayBufferWriter<byte>(16 * 1024 * 1024);
            var encoder = codec.CreateEncoder();
            encoder.WriteHeader(output, organization, members.Length);
            encoder.WriteMembers(output, members.AsSpan(0, Math.Min(Batch, members.Length)));

            var before = GC.GetAllocatedBytesForCurrentThread();
            for (var index = Batch; index < members.Length; index += Batch)
            {
                encoder.WriteMembers(output, members.AsSpan(index, Math.Min(Batch, members.Length - index)));
            }

            allocated = Math.Min(allocated, GC.GetAllocatedBytesForCurrentThread() - before);
        }

        return allocated;
    }
}
