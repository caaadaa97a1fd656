// Encodes an Organization given as canonical JSON (see canonical.mjs) with an independent JavaScript library, so that
// the .NET tests can check what their decoders read.
//
//   node encode.mjs <msgpack|protobuf|json|binary> <canonical-json-file> <out-file> [organization.proto]
//
// msgpack: @msgpack/msgpack, [Id, Tags, Members] and [Id, Name, Description, Address, Value, UpdateTime]. Every
//          double is written as float64 and every integer as BigInt, so integers go out in the int64/uint64
//          formats: valid MessagePack that a decoder must accept even though .NET writers choose the shortest.
// protobuf: protobufjs with the schema file given (default: organization.proto here). As proto3 allows, it leaves
//          out empty strings and zeros.
// json:    written by hand, because JSON.stringify cannot write an int64 exactly.
// binary:  the API's webserialization-binary-writer.mjs (src/Api/wwwroot/js), a writer of docs/binary-format.md written from
//          the spec alone, making the spec's writer choices.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { encode } from '@msgpack/msgpack';
import protobuf from 'protobufjs';
import { encodeBinary } from '../../src/Api/wwwroot/js/webserialization-binary-writer.mjs';
import { parseCanonicalJson } from './canonical.mjs';

const defaultSchema = fileURLToPath(new URL('./organization.proto', import.meta.url));

function encodeProtobuf(organization, schemaPath) {
  const root = protobuf.parse(readFileSync(schemaPath ?? defaultSchema, 'utf8'), { keepCase: true }).root;
  const Organization = root.lookupType('Organization');
  const Member = root.lookupType('Member');

  // A field left unset is not written; null strings stay unset.
  const set = (target, field, value) => {
    if (value !== null) {
      target[field] = value;
    }
  };
  const members = (organization.members ?? []).map((member) => {
    const properties = { Id: member.id, Value: member.value, UpdateTime: protobuf.util.Long.fromString(member.updateTime.toString()) };
    set(properties, 'Name', member.name);
    set(properties, 'Description', member.description);
    set(properties, 'Address', member.address);
    return Member.create(properties);
  });
  const message = Organization.create({ Id: organization.id, Tags: organization.tags ?? [], Members: members });
  return Organization.encode(message).finish();
}

function encodeMessagePack(organization) {
  const members = organization.members?.map((member) => [
    BigInt(member.id), member.name, member.description, member.address, member.value, member.updateTime,
  ]) ?? null;
  return encode([BigInt(organization.id), organization.tags, members], { useBigInt64: true, forceIntegerToFloat: true });
}

function encodeJson(organization) {
  const double = (value) => (Number.isNaN(value) ? '"NaN"'
    : value === Infinity ? '"Infinity"'
      : value === -Infinity ? '"-Infinity"'
        : Object.is(value, -0) ? '-0' : String(value));
  const member = (m) => `{"id":${m.id},"name":${JSON.stringify(m.name)},"description":${JSON.stringify(m.description)},`
    + `"address":${JSON.stringify(m.address)},"value":${double(m.value)},"updateTime":${m.updateTime}}`;
  const members = organization.members === null ? 'null' : `[${organization.members.map(member).join(',')}]`;
  return Buffer.from(`{"id":${organization.id},"tags":${JSON.stringify(organization.tags)},"members":${members}}`, 'utf8');
}

const encoders = { protobuf: encodeProtobuf, msgpack: encodeMessagePack, json: encodeJson, binary: encodeBinary };
const [format, jsonPath, outPath, schemaPath] = process.argv.slice(2);
if (!Object.hasOwn(encoders, format) || outPath === undefined) {
  process.stderr.write('usage: node encode.mjs <msgpack|protobuf|json|binary> <canonical-json-file> <out-file> [organization.proto]\n');
  process.exit(2);
}

try {
  writeFileSync(outPath, encoders[format](parseCanonicalJson(readFileSync(jsonPath, 'utf8')), schemaPath));
} catch (error) {
  process.stderr.write(`encode.mjs ${format}: ${error.stack ?? error}\n`);
  process.exit(1);
}
