using WebSerialization.Load;

return await LoadRun.RunAsync(args);
