using YamlDotNet.RepresentationModel;

namespace WebSerialization.IntegrationTests;

// deploy/kubernetes read as a cluster would read the parts that matter here (no cluster or kubectl is reachable): the
// probes hit the app's health endpoint on its port, the grace outlasts the drain and the requests in flight, the
// Service, autoscaler and disruption budget point at the Deployment, and the pod runs as the image's user.
public sealed class KubernetesManifestTests
{
    private static readonly Dictionary<string, YamlMappingNode> Documents = Load();

    [Fact]
    public void ProbesAskTheHealthEndpointOnTheAppsPort()
    {
        var container = Container();
        var ports = Sequence(container, "ports").Cast<YamlMappingNode>().ToDictionary(port => Text(port, "name"), port => Text(port, "containerPort"));
        Assert.Equal("8080", ports["http"]);
        Assert.Equal("8081", ports["grpc"]);
        foreach (var probe in new[] { "readinessProbe", "livenessProbe" })
        {
            var get = Mapping(Mapping(container, probe), "httpGet");
            Assert.Equal("/healthz", Text(get, "path"));
            Assert.Equal("http", Text(get, "port"));
        }
    }

    [Fact]
    public void TheGraceOutlastsTheDrainAndTheRequestsInFlight()
    {
        var environment = Environment();
        var drain = double.Parse(environment["Shutdown__DrainSeconds"], CultureInfo.InvariantCulture);
        var inFlight = double.Parse(environment["shutdownTimeoutSeconds"], CultureInfo.InvariantCulture);
        var grace = double.Parse(Text(PodSpec(), "terminationGracePeriodSeconds"), CultureInfo.InvariantCulture);

        // The drain must outlast the readiness probe's time to mark the pod unready.
        var readiness = Mapping(Container(), "readinessProbe");
        Assert.True(drain > double.Parse(Text(readiness, "periodSeconds"), CultureInfo.InvariantCulture) * double.Parse(Text(readiness, "failureThreshold"), CultureInfo.InvariantCulture));
        Assert.True(drain < inFlight, "shutdownTimeoutSeconds bounds the whole stop, the drain included.");
        Assert.True(grace > inFlight, $"terminationGracePeriodSeconds {grace} would kill the pod before the host's {inFlight} s are up.");
    }

    [Fact]
    public void EveryVariableIsASettingTheAppReads()
    {
        using var appSettings = JsonDocument.Parse(File.ReadAllText(Path.Combine(RepositoryFolder.Root, "src", "Api", "appsettings.json")));
        foreach (var name in Environment().Keys)
        {
            var element = appSettings.RootElement;
            foreach (var part in name.Split("__"))
            {
                Assert.True(element.TryGetProperty(part, out element), $"{name} is not a setting in src/Api/appsettings.json.");
            }
        }
    }

    [Fact]
    public void TheServiceAutoscalerAndDisruptionBudgetSelectTheDeploymentsPods()
    {
        var deployment = Documents["Deployment"];
        var name = Text(Mapping(deployment, "metadata"), "name");
        var labels = Mapping(Mapping(Mapping(Mapping(deployment, "spec"), "template"), "metadata"), "labels");
        var selector = Mapping(Mapping(Mapping(deployment, "spec"), "selector"), "matchLabels");
        Assert.All(selector.Children, label => Assert.Equal(label.Value.ToString(), labels[label.Key].ToString()));

        Assert.Equal(selector.Children, Mapping(Mapping(Documents["Service"], "spec"), "selector").Children);
        Assert.Equal(selector.Children, Mapping(Mapping(Mapping(Documents["PodDisruptionBudget"], "spec"), "selector"), "matchLabels").Children);
        var target = Mapping(Mapping(Documents["HorizontalPodAutoscaler"], "spec"), "scaleTargetRef");
        Assert.Equal(("Deployment", name), (Text(target, "kind"), Text(target, "name")));

        var replicas = int.Parse(Text(Mapping(deployment, "spec"), "replicas"), CultureInfo.InvariantCulture);
        var minAvailable = int.Parse(Text(Mapping(Documents["PodDisruptionBudget"], "spec"), "minAvailable"), CultureInfo.InvariantCulture);
        Assert.True(minAvailable < replicas, "A budget as large as the replica count would block every voluntary eviction.");
    }

    [Fact]
    public void ThePodRunsAsTheImagesUserWithAWritableTemporaryFolderOnly()
    {
        var security = Mapping(PodSpec(), "securityContext");
        Assert.Equal("1654", Text(security, "runAsUser"));
        Assert.Equal("true", Text(Mapping(Container(), "securityContext"), "readOnlyRootFilesystem"));
        Assert.Contains(Sequence(Container(), "volumeMounts").Cast<YamlMappingNode>(), mount => Text(mount, "mountPath") == "/tmp");
    }

    private static YamlMappingNode PodSpec() => Mapping(Mapping(Mapping(Documents["Deployment"], "spec"), "template"), "spec");

    private static YamlMappingNode Container() => (YamlMappingNode)Sequence(PodSpec(), "containers").Single();

    private static Dictionary<string, string> Environment() =>
        Sequence(Container(), "env").Cast<YamlMappingNode>().ToDictionary(variable => Text(variable, "name"), variable => Text(variable, "value"));

    private static YamlMappingNode Mapping(YamlMappingNode node, string key) => (YamlMappingNode)node[key];

    private static IEnumerable<YamlNode> Sequence(YamlMappingNode node, string key) => ((YamlSequenceNode)node[key]).Children;

    private static string Text(YamlMappingNode node, string key) => ((YamlScalarNode)node[key]).Value!;

    private static Dictionary<string, YamlMappingNode> Load()
    {
        var stream = new YamlStream();
        stream.Load(new StringReader(File.ReadAllText(Path.Combine(RepositoryFolder.Root, "deploy", "kubernetes", "webserialization.yaml"))));
        return stream.Documents.Select(document => (YamlMappingNode)document.RootNode).ToDictionary(document => Text(document, "kind"));
    }
}
