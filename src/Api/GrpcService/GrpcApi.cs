using Grpc.AspNetCore.Server.Model;
using Microsoft.Extensions.Options;
using ProtoBuf.Grpc.Server;
using WebSerialization.Api.Limits;

namespace WebSerialization.Api.GrpcService;

/// <summary>
/// Code-first gRPC (protobuf-net.Grpc) in the same app: <see cref="OrganizationGrpcService"/> on its own h2c port
/// (<see cref="GrpcOptions.Port"/>), beside the HTTP/1.1 API on its own.
/// </summary>
public static class GrpcApi
{
    /// <summary>Registers the gRPC services, their message limits and the h2c endpoint.</summary>
    public static WebApplicationBuilder AddGrpcApi(this WebApplicationBuilder builder)
    {
        var section = builder.Configuration.GetSection(GrpcOptions.Section);
        builder.Services.Configure<GrpcOptions>(section);
        builder.Services.AddUploadLimits();
        var grpc = section.Get<GrpcOptions>() ?? new GrpcOptions();

        builder.Services.AddSingleton(OrganizationServiceBinder.Configuration(grpc.UseProtobufNetMarshaller));
        builder.Services.AddSingleton<IServiceMethodProvider<OrganizationGrpcService>, OrganizationUploadMethodProvider>();

        // protobuf-net.Grpc warns of each contract method it does not bind, and OrganizationServiceBinder leaves it
        // UploadOrganization on purpose (OrganizationUploadMethodProvider binds it): only its errors are worth logging.
        builder.Logging.AddFilter("ProtoBuf.Grpc.Server.ServicesExtensions.CodeFirstServiceMethodProvider", LogLevel.Error);

        builder.Services.AddCodeFirstGrpc(options =>
        {
            options.MaxSendMessageSize = grpc.MaxSendMessageBytes;
            options.MaxReceiveMessageSize = grpc.MaxReceiveMessageBytes;
        });
        builder.WebHost.ConfigureKestrel((context, kestrel) => GrpcEndpoints.Configure(kestrel, context.Configuration, grpc.Port));
        builder.Services.AddTransient<IStartupFilter, GrpcEndpoints.HostingUrlsDeclared>();
        return builder;
    }

    /// <summary>Maps the gRPC services, reachable only on the gRPC port (when it is a fixed one).</summary>
    public static WebApplication MapGrpcApi(this WebApplication app)
    {
        // Every call holds a heavy slot: a call's member count is in its message, read after the limiter has decided.
        var service = app.MapGrpcService<OrganizationGrpcService>().RequireRateLimiting(HeavyRequestLimiter.Policy);
        var port = app.Services.GetRequiredService<IOptions<GrpcOptions>>().Value.Port;
        if (port != 0)
        {
            service.RequireHost($"*:{port}");
        }

        return app;
    }
}
