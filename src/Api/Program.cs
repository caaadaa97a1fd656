using WebSerialization.Api.Baseline;
using WebSerialization.Api.Compression;
using WebSerialization.Api.Diagnostics;
using WebSerialization.Api.GrpcService;
using WebSerialization.Api.Home;
using WebSerialization.Api.Lifecycle;
using WebSerialization.Api.Limits;
using WebSerialization.Api.OpenApi;
using WebSerialization.Api.Organizations;
using WebSerialization.Api.Transport;

var builder = WebApplication.CreateBuilder(args);

builder.Logging.AddCompactJsonConsole();

builder.Services.AddSocketBuffers(builder.Configuration);
builder.Services.AddAlwaysJsonProblemDetails();
builder.Services.AddHealthChecks();
builder.Services.AddDrainOnStop(builder.Configuration);
builder.Services.AddHttpCompression(builder.Configuration);
builder.Services.AddApiDocumentation();
builder.Services.AddHeavyRequestLimiter(builder.Configuration);
builder.Services.AddOrganizations(builder.Configuration);
builder.Services.AddBaseline(builder.Configuration);
builder.AddGrpcApi();
builder.Services.AddMetrics(builder.Configuration);

var app = builder.Build();

app.UseTrustedForwardedHeaders();
app.UseRequestLogging();
app.UseHttpCompression();
app.UseExceptionHandler();
app.UseStatusCodePages();
app.UseHomePage();
app.UseApiDocumentation();
app.MapMetrics();
app.UseRateLimiter();
app.UseHeavyRequestGuard();

app.MapHealthEndpoint();
app.MapOrganizations();
app.MapServiceDescription();
app.MapBaseline();
app.MapGrpcApi();

app.Run();

/// <summary>The entry point, visible to the integration tests' WebApplicationFactory.</summary>
public partial class Program;
