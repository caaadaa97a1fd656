namespace WebSerialization.Api.Diagnostics;

/// <summary>Wires problem details for every error the app or the framework produces.</summary>
public static class ProblemDetailsExtensions
{
    /// <summary>Adds problem details with the always-JSON writer in front.</summary>
    public static IServiceCollection AddAlwaysJsonProblemDetails(this IServiceCollection services)
    {
        services.AddSingleton<AlwaysJsonProblemDetailsWriter>();
        services.AddSingleton<IProblemDetailsWriter>(sp => sp.GetRequiredService<AlwaysJsonProblemDetailsWriter>());
        services.AddProblemDetails();
        return services;
    }
}
