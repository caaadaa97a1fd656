namespace WebSerialization.Load.ScaleOut;

/// <summary>How a scenario's requests reach the API.</summary>
public enum ServerRoute
{
    /// <summary>Straight to the server: the one the runner started or was given, or replica 1 in a <c>--through-haproxy</c> run.</summary>
    Straight,

    /// <summary>Through HAProxy, in front of the replicas of a <c>--through-haproxy</c> run.</summary>
    ThroughHAProxy,
}
