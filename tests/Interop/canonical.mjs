// Canonical JSON: how decode.mjs prints an Organization and how encode.mjs reads one, so that the .NET tests can
// compare every value exactly with no library's own JSON in between.
//
//   {"id":1,"tags":["a",null]|null,"members":[{"id":0,"name":"x"|null,"description":...,"address":...,
//     "value":1.5|"NaN"|"Infinity"|"-Infinity","valueBits":"3ff8000000000000","updateTime":"1702247304000"}]|null}
//
// valueBits (the IEEE 754 bits, 16 hex digits) is what counts: it tells -0 from 0 and keeps a NaN's payload; value
// is there for people reading it; a decoder that has a double's bits hands them over as valueBits, so that no NaN
// payload depends on the engine. updateTime is a decimal string, because an int64 does not fit a JavaScript number.
// A tag may be null, as the binary format allows.

// A double's bits are read and written by the binary reader's own helpers, so that there is one implementation of them.
import { bitsOf, doubleFromBits } from '../../src/Api/wwwroot/js/webserialization-binary.mjs';

export { bitsOf, doubleFromBits };

/** Checks that a value is an integer within a signed range of the given bits, and returns it as a BigInt. */
export function checkInteger(value, bits, what) {
  const big = typeof value === 'bigint' ? value : Number.isInteger(value) ? BigInt(value) : undefined;
  if (big === undefined || big < -(1n << BigInt(bits - 1)) || big >= 1n << BigInt(bits - 1)) {
    throw new Error(`${what} must be an int${bits}, not ${String(value)}`);
  }

  return big;
}

/** Checks that a value is a string or null. */
export function checkString(value, what) {
  if (value !== null && typeof value !== 'string') {
    throw new Error(`${what} must be a string or null, not ${typeof value}`);
  }

  return value;
}

function describeDouble(value) {
  if (Number.isNaN(value)) {
    return 'NaN';
  }

  if (value === Infinity) {
    return 'Infinity';
  }

  return value === -Infinity ? '-Infinity' : value;
}

/**
 * Writes an organization as canonical JSON. Takes {id, tags, members} where id is a number, tags an array of
 * strings or null, members an array or null of {id, name, description, address, value (a double), updateTime (a BigInt)}
 * and optionally valueBits (16 hex digits, which win over value).
 */
export function toCanonicalJson(organization) {
  const members = organization.members?.map((member) => ({
    id: member.id,
    name: member.name,
    description: member.description,
    address: member.address,
    value: describeDouble(member.value),
    valueBits: member.valueBits ?? bitsOf(member.value),
    updateTime: member.updateTime.toString(),
  }));
  return JSON.stringify({ id: organization.id, tags: organization.tags, members: members ?? null });
}

/** Reads canonical JSON into the shape toCanonicalJson takes. */
export function parseCanonicalJson(text) {
  const organization = JSON.parse(text);
  const tags = organization.tags;
  if (tags !== null && !(Array.isArray(tags) && tags.every((tag) => tag === null || typeof tag === 'string'))) {
    throw new Error('tags must be an array of strings and nulls, or null');
  }

  if (organization.members !== null && !Array.isArray(organization.members)) {
    throw new Error('members must be an array or null');
  }

  return {
    id: Number(checkInteger(organization.id, 32, 'id')),
    tags,
    members: organization.members?.map((member, index) => ({
      id: Number(checkInteger(member.id, 32, `members[${index}].id`)),
      name: checkString(member.name, `members[${index}].name`),
      description: checkString(member.description, `members[${index}].description`),
      address: checkString(member.address, `members[${index}].address`),
      value: doubleFromBits(member.valueBits),
      valueBits: member.valueBits,
      updateTime: checkInteger(BigInt(member.updateTime), 64, `members[${index}].updateTime`),
    })) ?? null,
  };
}
