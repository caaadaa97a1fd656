using WebSerialization.Models;
using WebSerialization.Models.Codecs;

namespace WebSerialization.Benchmarks.Contenders;

/// <summary>
/// One row of the benchmark: a way to turn an <see cref="Organization"/> into bytes and back. Instances are the
/// <c>[ParamsSource]</c> values of <see cref="SerializerBenchmarks"/>, so BenchmarkDotNet shows <see cref="ToString"/>.
/// </summary>
public abstract class OrganizationSerializer
{
    /// <summary>The row of the seed-shaped table, and the name BenchmarkDotNet shows.</summary>
    public abstract string Name { get; }

    /// <summary>What the row measures, in one sentence for docs/results/benchmarks.md.</summary>
    public abstract string Description { get; }

    /// <summary>The wire format family, to compare rows of the same format.</summary>
    public abstract ContenderFamily Family { get; }

    /// <summary>True for the rows that run our encoders and decoders the way the API does (pipe in, pipe out).</summary>
    public virtual bool IsStreaming => false;

    /// <summary>The payload as one array: the input that <see cref="Deserialize"/> is prepared from, and the size column.</summary>
    public abstract byte[] SerializeToArray(Organization organization);

    /// <summary>The measured serialization; returns the number of bytes produced.</summary>
    public abstract long Serialize(Organization organization);

    /// <summary>The measured deserialization of a payload made by <see cref="SerializeToArray"/>.</summary>
    public abstract Organization Deserialize(PreparedPayload payload);

    /// <summary>
    /// The measured upload summary of a payload: its <see cref="OrganizationChecksum"/>. The stock way, for any row, is
    /// to deserialize and hash the objects; a row that folds the decoded fields into the checksum without building
    /// objects says so with <see cref="SummarizesWithoutObjects"/>.
    /// </summary>
    public virtual string Summarize(PreparedPayload payload) => OrganizationChecksum.Compute(Deserialize(payload));

    /// <summary>True for the rows whose <see cref="Summarize"/> builds no objects (the server's upload path).</summary>
    public virtual bool SummarizesWithoutObjects => false;

    /// <summary>The row's place in <see cref="SerializerLineup"/>, which BenchmarkDotNet's tables follow.</summary>
    public int Position { get; internal set; }

    /// <inheritdoc />
    public sealed override string ToString() => Name;

    /// <summary>A format's name as the tables spell it.</summary>
    protected static string FormatName(IWireFormatCodec codec) => WireFormat.All.Single(format => format.Codec == codec).Name;
}
