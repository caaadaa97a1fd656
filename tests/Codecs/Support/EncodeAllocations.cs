namespace WebSerialization.Codecs.Tests.Support;

/// <summary>Measures what an encoder allocates while it writes members, as the API's stream writer calls it.</summary>
internal static class EncodeAllocations
{
    private const int Batch = 64;

    /// <summary>
    /// Bytes allocated writing every batch of 64 members after the first, into an output that never has to grow: the
    /// first batch runs the code paths once (JIT, statics) and is not measured.
    /// </summary>
    /// <remarks>The least of three measurements (<see cref="ThreadAllocations.LeastOfThree"/>).</remarks>
    public static long AfterTheFirstBatch(IWireFormatCodec codec, Organization organization)
    {
        ArgumentNullException.ThrowIfNull(codec);
        ArgumentNullException.ThrowIfNull(organization);
        var members = organization.Members!.ToArray();
        return ThreadAllocations.LeastOfThree(() =>
        {
            var output = new ArrayBufferWriter<byte>(16 * 1024 * 1024);
            var encoder = codec.CreateEncoder();
            encoder.WriteHeader(output, organization, members.Length);
            encoder.WriteMembers(output, members.AsSpan(0, Math.Min(Batch, members.Length)));
            return () =>
            {
                for (var index = Batch; index < members.Length; index += Batch)
                {
                    encoder.WriteMembers(output, members.AsSpan(index, Math.Min(Batch, members.Length - index)));
                }
            };
        });
    }
}
