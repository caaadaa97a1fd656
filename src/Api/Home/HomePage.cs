using WebSerialization.Api.Diagnostics;
using WebSerialization.Api.OpenApi;
using WebSerialization.Api.Organizations;

namespace WebSerialization.Api.Home;

/// <summary>
/// The page at <c>/</c>: plain static files from wwwroot (HTML, CSS, ES modules, no build step, nothing fetched from
/// elsewhere), and <c>GET /api/service</c>, the one thing it reads besides <c>GET /api/formats</c>.
/// </summary>
public static class HomePage
{
    /// <summary>
    /// Serves wwwroot, with <c>/</c> answered by <c>index.html</c>. Only files that exist are served, and only to GET
    /// and HEAD, so every other path still reaches the endpoints and an unknown one still gets a 404 problem.
    /// </summary>
    public static WebApplication UseHomePage(this WebApplication app)
    {
        app.UseDefaultFiles();
        app.UseStaticFiles();
        return app;
    }

    /// <summary>Maps <c>GET /api/service</c>.</summary>
    public static RouteHandlerBuilder MapServiceDescription(this IEndpointRouteBuilder routes) =>
        routes.MapGet("/api/service", Describe)
            .WithTags("Service")
            .WithName("GetService")
            .WithSummary("What this server offers beside the formats: the largest `count`, and where its schema, Swagger UI and metrics are (null when switched off).");

    private static ServiceDescription Describe(SeedOrganization seed, IConfiguration configuration) => new(
        seed.MemberCount,
        new ServiceLinks(
            OrganizationApi.SchemaPath,
            configuration.GetValue(SwaggerExtensions.EnabledKey, defaultValue: true) ? SwaggerExtensions.UiPath : null,
            configuration.GetValue<bool>(MetricsExtensions.EnabledKey) ? MetricsExtensions.Path : null));
}
