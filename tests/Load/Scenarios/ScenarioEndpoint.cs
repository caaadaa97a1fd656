namespace WebSerialization.Load.Scenarios;

/// <summary>Which implementation of the organization endpoints a scenario measures.</summary>
public enum ScenarioEndpoint
{
    /// <summary><c>/api/organization</c>: this project's streamed encoders and decoders.</summary>
    Streamed,

    /// <summary><c>/api/mvc/organization</c>: MVC with the stock formatters (<c>Baseline:Enabled</c>), the baseline the streamed endpoint is measured against.</summary>
    Baseline,
}
