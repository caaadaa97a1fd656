using Grpc.Core;
using WebSerialization.Models.GrpcContract;

namespace WebSerialization.Codecs.Tests.GrpcContract;

/// <summary>The gRPC marshallers of the organization's messages write the HTTP endpoint's bytes.</summary>
public sealed class OrganizationMarshallerFactoryTests
{
    public static TheoryData<int> Seeds => [1, 2, 3];

    [Theory]
    [MemberData(nameof(Seeds))]
    public void OrganizationMessageIsTheHttpEndpointsBytesWithItsLengthSetFirst(int seed)
    {
        var organization = OrganizationGen.Random(seed, 300);

        var (bytes, declared) = Write(organization);

        Assert.Equal(Encode(ProtobufCodec.Instance, organization), bytes);
        Assert.Equal(bytes.Length, declared);
        Assert.Equal(bytes.Length, OrganizationMarshallerFactory.MessageSize(organization));
    }

    [Theory]
    [MemberData(nameof(Seeds))]
    public void WritesIntoAnOutputHoldingExactlyTheMessagesLength(int seed)
    {
        // Grpc.Net.Client's output, once the length is set: one array of that length, whatever room is asked for.
        var organization = OrganizationGen.Random(seed, 300);
        var whole = new Output(exact: true);
        var part = new Output(exact: true);

        OrganizationMarshallerFactory.OrganizationMarshaller.ContextualSerializer(organization, whole);
        OrganizationMarshallerFactory.PartMarshaller.ContextualSerializer(new OrganizationPart { Id = organization.Id, Tags = organization.Tags, Members = organization.Members }, part);

        Assert.Equal(Encode(ProtobufCodec.Instance, organization), whole.Bytes);
        Assert.Equal(whole.Bytes, part.Bytes);
    }

    [Fact]
    public void PartsOfAnySizeDeclareTheirLengthFirst()
    {
        // Parts go through a pooled buffer sized by the last part: a larger part after a small one must still fit,
        // and every part's declared length is its own, so grpc-dotnet writes it straight into the response.
        var organization = OrganizationGen.Random(5, 400);
        foreach (var count in new[] { 1, 400, 3, 0, 250 })
        {
            var part = new OrganizationPart { Members = organization.Members!.GetRange(0, count) };

            var (bytes, declared) = Write(part);

            Assert.Equal(Encode(ProtobufCodec.Instance, new Organization { Members = part.Members }), bytes);
            Assert.Equal(bytes.Length, declared);
        }
    }

    [Fact]
    public void PartsConcatenateIntoTheOrganizationKeepingNegativeZero()
    {
        // Random organizations hold -0.0 values, which protobuf-net alone would drop.
        var organization = OrganizationGen.Random(8, 250);
        var stream = new List<byte>(Write(new OrganizationPart { Id = organization.Id, Tags = organization.Tags }).Bytes);
        foreach (var batch in organization.Members!.Chunk(100))
        {
            stream.AddRange(Write(new OrganizationPart { Members = [.. batch] }).Bytes);
        }

        var decoded = Decode(ProtobufCodec.Instance, [.. stream]);

        OrganizationAssert.Equal(organization, decoded);
    }

    [Fact]
    public void ReadsWhatItWritesAndRecordsTheLength()
    {
        var organization = OrganizationGen.Random(4, 50);
        var (bytes, _) = Write(new OrganizationPart { Members = organization.Members });

        var part = Marshaller<OrganizationPart>().ContextualDeserializer(new Payload(bytes));

        Assert.Equal(bytes.Length, part.PayloadLength);
        Assert.Equal(OrganizationChecksum.Compute(new Organization { Members = organization.Members }), OrganizationChecksum.Compute(new Organization { Members = part.Members }));
    }

    private static (byte[] Bytes, int Declared) Write<T>(T message)
        where T : class
    {
        var context = new Output(exact: false);
        Marshaller<T>().ContextualSerializer(message, context);
        return (context.Bytes, context.Declared);
    }

    private static Marshaller<T> Marshaller<T>()
        where T : class =>
        (Marshaller<T>)(object)(typeof(T) == typeof(Organization) ? OrganizationMarshallerFactory.OrganizationMarshaller : OrganizationMarshallerFactory.PartMarshaller);

    private sealed class Output(bool exact) : SerializationContext
    {
        private IBufferWriter<byte>? _written;

        public int Declared { get; private set; } = -1;

        public byte[] Bytes => _written switch
        {
            ArrayBufferWriter<byte> growing => growing.WrittenSpan.ToArray(),
            ExactBuffer fixedSize => fixedSize.Written,
            _ => [],
        };

        public override void SetPayloadLength(int payloadLength)
        {
            // grpc-dotnet's contexts refuse a length set after the buffer writer was asked for.
            Assert.Null(_written);
            Declared = payloadLength;
        }

        public override IBufferWriter<byte> GetBufferWriter() =>
            _written ??= exact ? new ExactBuffer(Declared) : new ArrayBufferWriter<byte>();

        public override void Complete() { }

        public override void Complete(byte[] payload) => GetBufferWriter().Write(payload);
    }

    private sealed class ExactBuffer(int length) : IBufferWriter<byte>
    {
        private readonly byte[] _buffer = new byte[length];
        private int _used;

        public byte[] Written => _buffer[.._used];

        public void Advance(int count) => _used += count;

        public Memory<byte> GetMemory(int sizeHint = 0) => _buffer.AsMemory(_used);

        public Span<byte> GetSpan(int sizeHint = 0) => _buffer.AsSpan(_used);
    }

    private sealed class Payload(byte[] bytes) : DeserializationContext
    {
        public override int PayloadLength => bytes.Length;

        public override byte[] PayloadAsNewBuffer() => [.. bytes];

        public override ReadOnlySequence<byte> PayloadAsReadOnlySequence() => new(bytes);
    }
}
