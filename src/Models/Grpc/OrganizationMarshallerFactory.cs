using System.Buffers;
using Grpc.Core;
using ProtoBuf;
using ProtoBuf.Grpc.Configuration;
using WebSerialization.Models.Protobuf;

namespace WebSerialization.Models.Grpc;

/// <summary>
/// gRPC marshallers for <see cref="Organization"/> and <see cref="OrganizationPart"/> that write with the HTTP
/// endpoint's protobuf writer and read with protobuf-net; every other message goes to protobuf-net.Grpc's own.
/// Our writer because protobuf-net drops a -0.0 <see cref="Member.Value"/> (it skips any value equal to 0), which the
/// HTTP endpoint sends and the checksum tells apart; it also measures a message from its strings' lengths alone and
/// then writes it once, where protobuf-net measures each member by serializing it.
/// </summary>
/// <remarks>
/// The length is set before the buffer writer is asked for, so grpc-dotnet's server writes the message straight into
/// the response pipe instead of into a buffer of its own (its <c>HttpContextSerializationContext</c>).
/// Use <see cref="Binder"/> on both sides: the server registers it as its <c>BinderConfiguration</c>, a client passes
/// <c>ClientFactory.Create(OrganizationMarshallerFactory.Binder)</c> to <c>CreateGrpcService</c>.
/// </remarks>
public sealed class OrganizationMarshallerFactory : MarshallerFactory
{
    private OrganizationMarshallerFactory()
    {
    }

    /// <summary>The marshaller of <see cref="Organization"/> messages.</summary>
    public static Marshaller<Organization> OrganizationMarshaller { get; } = new(
        (organization, context) => Write(context, organization.Id, organization.Tags, organization.Members),
        Read<Organization>);

    /// <summary>The marshaller of <see cref="OrganizationPart"/> messages.</summary>
    public static Marshaller<OrganizationPart> PartMarshaller { get; } = new(
        (part, context) => Write(context, part.Id, part.Tags, part.Members),
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

    private static void Write(global::Grpc.Core.SerializationContext context, int id, string?[]? tags, List<Member>? members)
    {
        var size = ProtobufOrganizationEncoder.MeasureHeader(id, tags) + MembersSize(members);
        if (size > Array.MaxLength)
        {
            throw new RpcException(new Status(StatusCode.ResourceExhausted, $"A message of {size} bytes is larger than gRPC can frame."));
        }

        context.SetPayloadLength((int)size);
        using var output = new ExactSizeBufferWriter(context.GetBufferWriter());
        var writer = new ProtobufWireWriter(output);
        ProtobufOrganizationEncoder.WriteHeaderFields(ref writer, id, tags);
        foreach (var member in members ?? [])
        {
            ProtobufOrganizationEncoder.WriteMemberField(ref writer, member);
        }

        writer.Flush();
        context.Complete();
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
