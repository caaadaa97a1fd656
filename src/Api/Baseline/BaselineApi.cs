using System.Text.Json.Serialization;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Extensions.Options;
using WebSerialization.Api.Diagnostics;
using WebSerialization.Api.Limits;
using WebSerialization.Models.Baseline;

namespace WebSerialization.Api.Baseline;

/// <summary>
/// The MVC baseline: the organization served and read by MVC with the stock formatters, configured as MVC's users
/// configure them (<c>ReturnHttpNotAcceptable</c>, <c>[Produces]</c>, <c>[FormatFilter]</c>), so that the streamed
/// endpoint can be measured against what people run. Switched by <c>Baseline:Enabled</c>.
/// </summary>
public static class BaselineApi
{
    /// <summary>The Swagger tag its operations are listed under.</summary>
    public const string Tag = "Baseline";

    /// <summary>Adds MVC with the stock formatters when <c>Baseline:Enabled</c> is true.</summary>
    public static IServiceCollection AddBaseline(this IServiceCollection services, IConfiguration configuration)
    {
        var section = configuration.GetSection(BaselineOptions.Section);
        services.Configure<BaselineOptions>(section);
        if (!section.GetValue<bool>(nameof(BaselineOptions.Enabled)))
        {
            return services;
        }

        services.AddUploadLimits();
        services.AddScoped<BaselineUploadFilter>();
        services
            .AddControllers(options =>
            {
                options.ReturnHttpNotAcceptable = true;
                options.OutputFormatters.Add(new MessagePackOutputFormatter());
                options.OutputFormatters.Add(new ProtobufNetOutputFormatter());
                options.InputFormatters.Add(new MessagePackInputFormatter());
                options.InputFormatters.Add(new ProtobufNetInputFormatter());
                foreach (var (format, mediaType) in BaselineContract.Sent)
                {
                    options.FormatterMappings.SetMediaTypeMappingForFormat(format.Key, mediaType);
                }
            })
            .AddJsonOptions(options =>
            {
                // MVC's defaults (camelCase, numbers read from strings) plus what the streamed JSON does: NaN and the
                // infinities as the strings "NaN", "Infinity", "-Infinity", so that both write the same bytes.
                options.JsonSerializerOptions.NumberHandling |= JsonNumberHandling.AllowNamedFloatingPointLiterals;
            })
            .ConfigureApiBehaviorOptions(options => options.InvalidModelStateResponseFactory = InvalidModelState);
        return services;
    }

    /// <summary>Maps the baseline's controller when <c>Baseline:Enabled</c> is true.</summary>
    public static IEndpointRouteBuilder MapBaseline(this IEndpointRouteBuilder routes)
    {
        if (routes.ServiceProvider.GetRequiredService<IOptions<BaselineOptions>>().Value.Enabled)
        {
            routes.MapControllers();
        }

        return routes;
    }

    // A body a formatter could not read, or a query value that does not bind: 400 with the always-JSON problem
    // details, whatever the Accept header or ?format= asked for.
    private static ProblemActionResult InvalidModelState(ActionContext context)
    {
        var errors = context.ModelState
            .Where(entry => entry.Value?.Errors.Count > 0)
            .ToDictionary(entry => entry.Key, entry => entry.Value!.Errors.Select(error => error.ErrorMessage.Length > 0 ? error.ErrorMessage : error.Exception?.Message ?? "invalid").ToArray());
        return new ProblemActionResult(ProblemResponses.Problem(
            StatusCodes.Status400BadRequest,
            "Bad Request",
            string.Join(" ", errors.SelectMany(entry => entry.Value.Select(message => entry.Key.Length == 0 ? message : $"{entry.Key}: {message}"))),
            new Dictionary<string, object?> { ["errors"] = errors }));
    }
}
