using System.Buffers;
using CommunityToolkit.HighPerformance.Buffers;
using Grpc.Core;
using ProtoBuf;
using ProtoBuf.Grpc.Configuration;
using WebSerialization.Models.Protobuf;

namespace WebSerialization.Models.GrpcContract;

/// <summary>
/// gRPC marshallers for <see cref="Organization"/> and <see cref="OrganizationPart"/> that write with the HTTP
/// endpoint's protobuf writer and read with protobuf-net; every other message goes to protobuf-net.Grpc's own.
/// Our writer because protobuf-net drops a -0.0 <see cref="Member.Value"/> (it skips any value equal to 0), which the
/// HTTP endpoint sends and the checksum tells apart. Each member is serialized once, where protobuf-net serializes it
/// once to measure it and again to write it.
/// </summary>
/// <remarks>
/// Either way the length is set before the buffer writer is asked for, so grpc-dotnet's server writes the message
/// straight into the response pipe instead of into a buffer of its own (its <c>HttpContextSerializationContext</c>).
/// A whole <see cref="Organization"/> is measured from its strings' lengths, then written: it can be the whole
/// organization, too large to hold twice. A part, bounded by the stream's batch size, is written into a pooled buffer
/// and copied, which cost less server CPU in the load runner's <c>grpc-stream-1000000</c> than a measuring pass over
/// members that have left the cache by the time they are written.
/// Use <see cref="Binder"/> on both sides: the server registers it as its <c>BinderConfiguration</c>, a client passes
/// <c>ClientFactory.Create(OrganizationMarshallerFactory.Binder)</c> to <c>CreateGrpcService</c>.
/// </remarks>
public sealed class OrganizationMarshallerFactory : MarshallerFactory
{
    // A part far larger than the stream's (a client's own batch) does not make every later part rent as much.
    private const int MaxPartSizeHint = 4 * 1024 * 1024;

    // The size of the last part written, to rent a buffer that rarely has to grow; only a hint, so a lost update is harmless.
    private static int s_partSizeHint;

    private OrganizationMarshallerFactory()
    {
    }

    /// <summary>The marshaller of <see cref="Organization"/> messages.</summary>
    public static Marshaller<Organization> OrganizationMarshaller { get; } = new(
        (organization, context) => WriteMeasured(context, organization.Id, organization.Tags, organization.Members),
        Read<Organization>);

    /// <summary>The marshaller of <see cref="OrganizationPart"/> messages.</summary>
    public static Marshaller<OrganizationPart> PartMarshaller { get; } = new(
        (part, context) => WriteBuffered(context, part.Id, part.Tags, part.Members),
        Read<OrganizationPart>);

    /// <summary>The shared instance.</summary>
    public static OrganizationMarshallerFactory Instance { get; } = new();

    /// <summary>protobuf-net.Grpc's binder with these marshallers first and protobuf-net's for everything else.</summary>
    public static BinderConfiguration Binder { get; } = BinderConfiguration.Create([Instance, ProtoBufMarshallerFactory.Default]);

    /// <summary>The size in bytes of <paramref name="organization"/> as one message.</summary>
    public static long MessageSize(Organization organization)
    {
        ArgumentNullException.ThrowIfNull(organization);
        return ProtobufOrganizationEncoder.MeasureHeader(organization.Id, organization.Tags) + MembersSize(organization.Members);
    }

    /// <inheritdoc />
    protected override bool CanSerialize(Type type) => type == typeof(Organization) || type == typeof(OrganizationPart);

    /// <inheritdoc />
    protected override Marshaller<T> CreateMarshaller<T>() =>
        typeof(T) == typeof(Organization) ? (Marshaller<T>)(object)OrganizationMarshaller : (Marshaller<T>)(object)PartMarshaller;

    private static long MembersSize(List<Member>? members)
    {
        var size = 0L;
        foreach (var member in members ?? [])
        {
            size += ProtobufOrganizationEncoder.MeasureMember(member ?? throw new ArgumentException("A member is null.", nameof(members)));
        }

        return size;
    }

    private static void WriteMeasured(Grpc.Core.SerializationContext context, int id, string?[]? tags, List<Member>? members)
    {
        var size = ProtobufOrganizationEncoder.MeasureHeader(id, tags) + MembersSize(members);
        if (size > Array.MaxLength)
        {
            throw new RpcException(new Status(StatusCode.ResourceExhausted, $"A message of {size} bytes is larger than gRPC can frame."));
        }

        context.SetPayloadLength((int)size);
        using var output = new ExactSizeBufferWriter(context.GetBufferWriter());
        WriteFields(output, id, tags, members);
        context.Complete();
    }

    private static void WriteBuffered(Grpc.Core.SerializationContext context, int id, string?[]? tags, List<Member>? members)
    {
        using var buffer = new ArrayPoolBufferWriter<byte>(Math.Clamp(s_partSizeHint, 256, MaxPartSizeHint));
        WriteFields(buffer, id, tags, members);
        s_partSizeHint = buffer.WrittenCount;
        context.SetPayloadLength(buffer.WrittenCount);
        context.GetBufferWriter().Write(buffer.WrittenSpan);
        context.Complete();
    }

    // The message's fields as the HTTP endpoint writes an organization: its header, then each member.
    private static void WriteFields(IBufferWriter<byte> output, int id, string?[]? tags, List<Member>? members)
    {
        var writer = new ProtobufWireWriter(output);
        ProtobufOrganizationEncoder.WriteHeaderFields(ref writer, id, tags);
        foreach (var member in members ?? [])
        {
            ProtobufOrganizationEncoder.WriteMemberField(ref writer, member ?? throw new ArgumentException("A member is null.", nameof(members)));
        }

        writer.Flush();
    }

    private static T Read<T>(DeserializationContext context)
    {
        var message = Serializer.Deserialize<T>(context.PayloadAsReadOnlySequence());
        if (message is IPayloadLength withLength)
        {
            withLength.SetLength(context.PayloadLength);
        }

        return message;
    }
}
