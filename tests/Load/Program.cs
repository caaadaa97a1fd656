using WebSerialization.Load.Running;
using WebSerialization.Load.Scenarios.Examples;

return args is [MergeCommand.Name, .. var logs]
    ? await MergeCommand.RunAsync(logs)
    : await LoadRunner.RegisterScenarios(BrotliRoundTrip.Create()).RunAsync(args);
