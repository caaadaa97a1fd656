namespace WebSerialization.Api.OpenApi;

/// <summary>Swagger (Swashbuckle) document and UI.</summary>
public static class SwaggerExtensions
{
    /// <summary>The configuration switch; Swagger is on unless it is false.</summary>
    public const string EnabledKey = "Swagger:Enabled";

    /// <summary>Where Swagger UI is served (Swashbuckle's default route prefix).</summary>
    public const string UiPath = "/swagger";

    /// <summary>Adds the OpenAPI document generator.</summary>
    public static IServiceCollection AddApiDocumentation(this IServiceCollection services)
    {
        services.AddEndpointsApiExplorer();
        services.AddSwaggerGen(options =>
        {
            options.SwaggerDoc("v1", new() { Title = "WebSerialization", Version = "v1", Description = "One very large organization as JSON, MessagePack, protobuf or a custom binary format." });
            options.OperationFilter<OrganizationOperationFilter>();
        });
        return services;
    }

    /// <summary>Serves the document at <c>/swagger/v1/swagger.json</c> and Swagger UI at <c>/swagger</c>, unless <c>Swagger:Enabled</c> is false.</summary>
    public static WebApplication UseApiDocumentation(this WebApplication app)
    {
        if (app.Configuration.GetValue(EnabledKey, defaultValue: true))
        {
            app.UseSwagger();
            app.UseSwaggerUI();
        }

        return app;
    }
}
