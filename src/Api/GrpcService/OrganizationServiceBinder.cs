using System.Reflection;
using ProtoBuf.Grpc.Configuration;
using WebSerialization.Models.GrpcContract;

namespace WebSerialization.Api.GrpcService;

/// <summary>
/// protobuf-net.Grpc's service binder, on this server: every operation of <see cref="IOrganizationService"/> but
/// <c>UploadOrganization</c>, which <see cref="OrganizationUploadMethodProvider"/> binds instead so that the server reads
/// its messages as bytes. Clients and the served schema keep protobuf-net.Grpc's own binder: the contract is unchanged.
/// </summary>
internal sealed class OrganizationServiceBinder : ServiceBinder
{
    /// <summary>The contract's upload operation.</summary>
    public static MethodInfo UploadOperation { get; } =
        typeof(IOrganizationService).GetMethod(nameof(IOrganizationService.UploadOrganizationAsync))!;

    /// <summary>The binder configuration the server registers: these bindings, with the marshallers chosen in <see cref="GrpcOptions"/>.</summary>
    public static BinderConfiguration Configuration(bool useProtobufNetMarshaller) => BinderConfiguration.Create(
        useProtobufNetMarshaller ? [ProtoBufMarshallerFactory.Default] : [OrganizationMarshallerFactory.Instance, ProtoBufMarshallerFactory.Default],
        new OrganizationServiceBinder());

    public override bool IsOperationContract(MethodInfo method, out string? name) =>
        base.IsOperationContract(method, out name) && method != UploadOperation;
}
