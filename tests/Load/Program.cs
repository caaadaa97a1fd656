using WebSerialization.Load.Running;

return await LoadRun.RunAsync(args);
