using WebSerialization.Load.Running;

return args is [MergeCommand.Name, .. var logs] ? await MergeCommand.RunAsync(logs) : await LoadRun.RunAsync(args);
