namespace WebSerialization.Models.Protobuf;

/// <summary>
/// The protobuf schema of the model, as served at <c>/api/organization.proto</c>. Field numbers are those of
/// <see cref="ProtobufWire"/>; the interop tests read our bytes with an independent implementation using this text.
/// </summary>
public static class ProtobufSchema
{
    /// <summary>The schema text (proto3).</summary>
    public static string Text { get; } = $$"""
        syntax = "proto3";

        package webserialization;

        // The organization served by GET /api/organization with Accept: application/protobuf.
        // The response streams Members one element at a time; it is still one ordinary Organization message.
        message Organization {
          int32 Id = {{ProtobufWire.OrganizationId}};
          repeated string Tags = {{ProtobufWire.OrganizationTags}};
          repeated Member Members = {{ProtobufWire.OrganizationMembers}};
        }

        message Member {
          int32 Id = {{ProtobufWire.MemberId}};
          string Name = {{ProtobufWire.MemberName}};
          string Description = {{ProtobufWire.MemberDescription}};
          string Address = {{ProtobufWire.MemberAddress}};
          double Value = {{ProtobufWire.MemberValue}};
          int64 UpdateTime = {{ProtobufWire.MemberUpdateTime}};
        }

        // The answer of POST /api/organization with Accept: application/protobuf.
        message UploadSummary {
          string Format = 1;
          int32 MemberCount = 2;
          int32 TagCount = 3;
          int64 BytesRead = 4;
          double DecodeMilliseconds = 5;
          string Checksum = 6;
        }

        """;
}
