// What most of these tests use: the model, the codecs and the shared test helpers.
global using System.Buffers;
global using System.IO.Pipelines;
global using System.Text;
global using WebSerialization.Codecs.Tests.Support;
global using WebSerialization.Models;
global using WebSerialization.Models.Binary;
global using WebSerialization.Models.Codecs;
global using WebSerialization.Models.Json;
global using WebSerialization.Models.MessagePack;
global using WebSerialization.Models.Protobuf;
global using WebSerialization.Models.Streaming;
global using WebSerialization.Tests.Support;
global using Xunit.Abstractions;
global using static WebSerialization.Tests.Support.CodecHarness;
global using static WebSerialization.Codecs.Tests.Support.CodecTheoryRows;
global using static WebSerialization.Tests.Support.TheoryRows;
