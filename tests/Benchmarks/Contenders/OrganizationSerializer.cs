using System.Buffers;

namespace WebSerialization.Benchmarks.Contenders;

/// <summary>
/// One row of the benchmark: a way to turn an <see cref="Organization"/> into bytes and back. Instances are the
/// <c>[ParamsSource]</c> values of <see cref="SerializerBenchmarks"/>, so BenchmarkDotNet shows <see cref="ToString"/>.
/// </summary>
/// <param name="description">What the row measures, in one sentence for docs/results/benchmarks.md.</param>
public abstract class OrganizationSerializer(string name, ContenderFamily family, string description)
{
    public string Name => name;
    public string Description => description;
    public ContenderFamily Family => family;

    /// <summary>
    /// True for rows that run our codecs as the API does (pipe in, pipe out): their summary builds no objects.
    /// </summary>
    public virtual bool IsStreaming => false;

    /// <summary>The row's place in <see cref="SerializerLineup"/>, which BenchmarkDotNet's tables follow.</summary>
    public int Position { get; internal set; }

    /// <summary>The payload as one array: the input that <see cref="Deserialize"/> is prepared from, and the size column.</summary>
    public abstract byte[] SerializeToArray(Organization organization);

    /// <summary>The measured serialization; returns the number of bytes produced.</summary>
    public virtual long Serialize(Organization organization) => SerializeToArray(organization).Length;

    /// <summary>The measured deserialization of a payload made by <see cref="SerializeToArray"/>.</summary>
    public abstract Organization Deserialize(PreparedPayload payload);

    /// <summary>
    /// The measured upload summary of a payload, its <see cref="OrganizationChecksum"/>: the stock way deserializes and
    /// hashes the objects; a streaming row folds the decoded fields into the checksum without building objects.
    /// </summary>
    public virtual string Summarize(PreparedPayload payload) => OrganizationChecksum.Compute(Deserialize(payload));

    public sealed override string ToString() => Name;

    /// <summary>A format's name as the tables spell it.</summary>
    protected static string FormatName(IWireFormatCodec codec) => WireFormat.All.Single(format => format.Codec == codec).Name;
}

/// <summary>
/// Which format a row writes; the targets compare rows across families, and the rows of one family must write the same
/// bytes (protobuf-net's but for -0.0: docs/libraries.md). <see cref="Floor"/> is no format but
/// the least work any serializer of the object model does, a measuring stick.
/// </summary>
public enum ContenderFamily
{
    Json,
    MessagePack,
    Protobuf,
    Binary,
    SeedBinaryWriter,
    SeedCompressedMessagePack,
    Floor,
}

/// <summary>
/// A payload made in global setup: one array for a plain <c>Deserialize(byte[])</c>, and views of it in
/// <see cref="SegmentSize"/> segments, as a pipe over a socket hands them to a streaming reader.
/// </summary>
public sealed class PreparedPayload(byte[] bytes)
{
    public const int SegmentSize = 64 * 1024;

    public byte[] Bytes => bytes;

    public ReadOnlySequence<byte> Segments { get; } = BufferSegment.Split(bytes, SegmentSize);
}
