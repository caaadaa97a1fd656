using System.Globalization;
using System.Text.Json.Nodes;
using Microsoft.OpenApi;
using Swashbuckle.AspNetCore.SwaggerGen;
using Microsoft.Extensions.Options;
using WebSerialization.Api.Formats;
using WebSerialization.Api.Organizations;
using WebSerialization.Models.Baseline;
using WebSerialization.Models;

namespace WebSerialization.Api.OpenApi;

/// <summary>
/// Describes the uploads' request body, and the GETs' query parameters (the MVC baseline's too) as what they are (they bind as strings so that a bad value gets a
/// problem details body, not a bare 400): <c>count</c> an integer with a small example, so "Try it out" does
/// not ask a browser to render a million members; <c>format</c> one of the format keys.
/// </summary>
public sealed class OrganizationOperationFilter(IOptions<OrganizationOptions> options) : IOperationFilter
{
    /// <summary>The <c>count</c> Swagger UI fills in.</summary>
    public const int ExampleCount = 10;

    /// <inheritdoc />
    public void Apply(OpenApiOperation operation, OperationFilterContext context)
    {
        if (context.ApiDescription.HttpMethod == "POST" && context.ApiDescription.RelativePath?.StartsWith("api/organization", StringComparison.Ordinal) == true)
        {
            DescribeUploadBody(operation, context);
        }

        if (operation.Parameters is null || context.ApiDescription.RelativePath is not ("api/organization" or BaselineContract.Route) || context.ApiDescription.HttpMethod != "GET")
        {
            return;
        }

        foreach (var parameter in operation.Parameters.OfType<OpenApiParameter>())
        {
            switch (parameter.Name)
            {
                case MemberCountParameter.Name:
                    parameter.Description = "How many members to include, 0 to the configured member count. Omitted: all of them.";
                    parameter.Schema = new OpenApiSchema
                    {
                        Type = JsonSchemaType.Integer,
                        Format = "int32",
                        Minimum = "0",
                        Maximum = options.Value.MemberCount.ToString(CultureInfo.InvariantCulture),
                    };
                    parameter.Example = JsonValue.Create(ExampleCount);
                    break;
                case "format":
                    parameter.Description = "Overrides the Accept header (handy in a browser).";
                    parameter.Schema = new OpenApiSchema
                    {
                        Type = JsonSchemaType.String,
                        Enum = [.. WireFormat.All.Select(d => (JsonNode)JsonValue.Create(d.Key))],
                    };
                    break;
            }
        }
    }

    // The uploads read their body themselves (so that a wrong Content-Type gets a helpful 415), so the document
    // is told here what they read: an Organization under any name or alias of the table of formats, and nothing else.
    private static void DescribeUploadBody(OpenApiOperation operation, OperationFilterContext context)
    {
        var schema = context.SchemaGenerator.GenerateSchema(typeof(Organization), context.SchemaRepository);
        operation.RequestBody = new OpenApiRequestBody
        {
            Required = true,
            Description = "An organization in any format, named by Content-Type (the media types and aliases of GET /api/formats).",
            Content = AcceptHeaderNegotiator.SupportedMediaTypes.ToDictionary(mediaType => mediaType, IOpenApiMediaType (_) => new OpenApiMediaType { Schema = schema }),
        };
    }
}
