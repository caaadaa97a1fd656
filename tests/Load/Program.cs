using WebSerialization.Load.Running;
using WebSerialization.Load.Scenarios.Examples;

return await LoadRunner
    .RegisterScenarios(BrotliRoundTrip.Create())
    .RunAsync(args);
