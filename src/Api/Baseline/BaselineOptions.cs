namespace WebSerialization.Api.Baseline;

/// <summary>Configuration section <c>Baseline</c>: whether the MVC baseline endpoints are mapped.</summary>
public sealed class BaselineOptions
{
    /// <summary>The configuration section name.</summary>
    public const string Section = "Baseline";

    /// <summary>Map <c>/api/mvc/organization</c>. appsettings.json turns it on, appsettings.Production.json off.</summary>
    public bool Enabled { get; set; }
}
