// Decodes an Organization payload with an independent JavaScript library and prints it as canonical JSON (see
// canonical.mjs), so that the .NET tests can check what their encoders wrote.
//
//   node decode.mjs <msgpack|protobuf|json|binary> <payload-file> [organization.proto]
//
// msgpack: @msgpack/msgpack; an Organization is [Id, Tags, Members], a Member [Id, Name, Description, Address,
//          Value, UpdateTime]. protobuf: protobufjs with the schema file given (default: organization.proto here).
// json:    the platform's JSON.parse, with source text access so that int64 values keep every digit.
// binary:  the API's webserialization-binary.mjs (src/Api/wwwroot/js), a reader of docs/binary-format.md written from
//          the spec alone; it rejects what the spec says a reader rejects, printing "Malformed" or "Truncated" and
//          the offset.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { decode } from '@msgpack/msgpack';
import protobuf from 'protobufjs';
import { decodeBinary } from '../../src/Api/wwwroot/js/webserialization-binary.mjs';
import { checkInteger, checkString, toCanonicalJson } from './canonical.mjs';

const defaultSchema = fileURLToPath(new URL('./organization.proto', import.meta.url));

function decodeProtobuf(bytes, schemaPath) {
  const root = protobuf.parse(readFileSync(schemaPath ?? defaultSchema, 'utf8'), { keepCase: true }).root;
  const message = root.lookupType('Organization').decode(bytes);

  // protobufjs sets own properties only for fields on the wire; absent ones read their defaults from the prototype.
  const present = (member, field) => (Object.hasOwn(member, field) ? member[field] : null);

  // proto3 cannot tell an absent repeated field from an empty one; the .NET decoder reads both as null.
  return {
    id: message.Id,
    tags: message.Tags.length > 0 ? [...message.Tags] : null,
    members: message.Members.length > 0
      ? message.Members.map((member) => ({
        id: member.Id,
        name: present(member, 'Name'),
        description: present(member, 'Description'),
        address: present(member, 'Address'),
        value: member.Value,
        updateTime: BigInt(member.UpdateTime.toString()),
      }))
      : null,
  };
}

function decodeMessagePack(bytes) {
  // int64 and uint64 formats come back as BigInt, smaller integers as numbers.
  const organization = decode(bytes, { useBigInt64: true });
  if (!Array.isArray(organization) || organization.length !== 3) {
    throw new Error('an Organization must be a 3-element array');
  }

  const [id, tags, members] = organization;
  if (tags !== null && !(Array.isArray(tags) && tags.every((tag) => typeof tag === 'string'))) {
    throw new Error('Tags must be an array of strings or nil');
  }

  if (members !== null && !Array.isArray(members)) {
    throw new Error('Members must be an array or nil');
  }

  return {
    id: Number(checkInteger(id, 32, 'Id')),
    tags,
    members: members?.map((member, index) => {
      if (!Array.isArray(member) || member.length !== 6) {
        throw new Error(`Members[${index}] must be a 6-element array`);
      }

      const [memberId, name, description, address, value, updateTime] = member;
      if (typeof value !== 'number') {
        throw new Error(`Members[${index}].Value must be a float, not ${typeof value}`);
      }

      return {
        id: Number(checkInteger(memberId, 32, `Members[${index}].Id`)),
        name: checkString(name, `Members[${index}].Name`),
        description: checkString(description, `Members[${index}].Description`),
        address: checkString(address, `Members[${index}].Address`),
        value,
        updateTime: checkInteger(updateTime, 64, `Members[${index}].UpdateTime`),
      };
    }) ?? null,
  };
}

function decodeJson(bytes) {
  // Node 20 has JSON.parse source text access behind this flag (on by default from Node 21).
  setFlagsFromString('--harmony-json-parse-with-source');
  const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  const organization = JSON.parse(text, (key, value, context) => {
    if (typeof value !== 'number') {
      return value;
    }

    if (context?.source === undefined) {
      throw new Error('JSON.parse source text access is unavailable (needs Node 21+ or --harmony-json-parse-with-source)');
    }

    return { number: value, source: context.source };
  });

  const integer = (value, bits, what) => {
    if (typeof value?.source !== 'string' || !/^-?\d+$/.test(value.source)) {
      throw new Error(`${what} must be an integer literal`);
    }

    return checkInteger(BigInt(value.source), bits, what);
  };
  const double = (value, what) => {
    const named = { NaN, Infinity, '-Infinity': -Infinity };
    if (typeof value === 'string' && Object.hasOwn(named, value)) {
      return named[value];
    }

    if (typeof value?.number !== 'number') {
      throw new Error(`${what} must be a number or "NaN", "Infinity", "-Infinity"`);
    }

    return value.number;
  };

  const { id, tags, members } = organization;
  return {
    id: id === undefined ? 0 : Number(integer(id, 32, 'id')),
    tags: tags ?? null,
    members: members?.map((member, index) => ({
      id: member.id === undefined ? 0 : Number(integer(member.id, 32, `members[${index}].id`)),
      name: checkString(member.name ?? null, `members[${index}].name`),
      description: checkString(member.description ?? null, `members[${index}].description`),
      address: checkString(member.address ?? null, `members[${index}].address`),
      value: member.value === undefined ? 0 : double(member.value, `members[${index}].value`),
      updateTime: member.updateTime === undefined ? 0n : integer(member.updateTime, 64, `members[${index}].updateTime`),
    })) ?? null,
  };
}

const decoders = { protobuf: decodeProtobuf, msgpack: decodeMessagePack, json: decodeJson, binary: decodeBinary };
const [format, payloadPath, schemaPath] = process.argv.slice(2);
if (!Object.hasOwn(decoders, format) || payloadPath === undefined) {
  process.stderr.write('usage: node decode.mjs <msgpack|protobuf|json|binary> <payload-file> [organization.proto]\n');
  process.exit(2);
}

try {
  process.stdout.write(`${toCanonicalJson(decoders[format](readFileSync(payloadPath), schemaPath))}\n`);
} catch (error) {
  process.stderr.write(`decode.mjs ${format}: ${error.stack ?? error}\n`);
  process.exit(1);
}
