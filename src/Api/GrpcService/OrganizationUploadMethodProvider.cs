using Grpc.AspNetCore.Server.Model;
using Grpc.Core;
using ProtoBuf.Grpc.Configuration;
using WebSerialization.Models;
using WebSerialization.Models.GrpcContract;

namespace WebSerialization.Api.GrpcService;

/// <summary>
/// Binds <c>UploadOrganization</c> to <see cref="OrganizationGrpcService.UploadAsync"/> with a request marshaller that
/// keeps each message's bytes (<see cref="OrganizationPartPayload"/>): the same method, name and messages on the wire as
/// protobuf-net.Grpc would bind (<see cref="OrganizationServiceBinder"/> leaves this one out), read the way
/// <c>POST /api/organization</c> reads a body. The answer goes out with the server's marshaller for
/// <see cref="UploadSummary"/>.
/// </summary>
internal sealed class OrganizationUploadMethodProvider(BinderConfiguration binderConfiguration) : IServiceMethodProvider<OrganizationGrpcService>
{
    public void OnServiceMethodDiscovery(ServiceMethodProviderContext<OrganizationGrpcService> context)
    {
        var binder = ServiceBinder.Default;
        if (!binder.IsServiceContract(typeof(IOrganizationService), out var service) || service is null
            || !binder.IsOperationContract(OrganizationServiceBinder.UploadOperation, out var operation) || operation is null)
        {
            throw new InvalidOperationException($"{nameof(IOrganizationService)} has no upload operation to bind.");
        }

        var method = new Method<OrganizationPartPayload, UploadSummary>(
            MethodType.ClientStreaming,
            service,
            operation,
            OrganizationPartPayload.Marshaller,
            binderConfiguration.GetMarshaller<UploadSummary>());
        context.AddClientStreamingMethod(method, [], static (grpcService, parts, callContext) => grpcService.UploadAsync(parts, callContext));
    }
}
