// The WebSerialization binary format's writer, written from docs/binary-format.md alone, as the reader beside it
// (webserialization-binary.mjs, whose constants it takes): encodeBinary(organization) makes the spec's writer choices
// and returns the payload's bytes. tests/Interop writes the binary payloads the .NET decoder is tested on with it.
import {
  addressKindShift,
  bitsOf,
  consecutiveIdFlag,
  descriptionKindShift,
  doubleFromBits,
  integerValueFlag,
  isAsciiDigit,
  magic,
  maxNumberDigits,
  nameKindShift,
  trailingDigitCount,
  version,
} from './webserialization-binary.mjs';

// Value: the integer form holds -2^63 <= value < 2^63.
const twoTo63 = 2 ** 63;

const utf8Encoder = new TextEncoder();

class PayloadWriter {
  constructor() {
    this.bytes = new Uint8Array(256);
    this.length = 0;
  }

  reserve(count) {
    if (this.length + count > this.bytes.length) {
      const larger = new Uint8Array(Math.max(this.bytes.length * 2, this.length + count));
      larger.set(this.bytes.subarray(0, this.length));
      this.bytes = larger;
    }
  }

  byte(value) {
    this.reserve(1);
    this.bytes[this.length++] = value;
  }

  raw(bytes) {
    this.reserve(bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }

  varint32(value) {
    if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
      throw new RangeError(`${value} does not fit a varint32`);
    }

    let rest = value;
    while (rest >= 0x80) {
      this.byte((rest & 0x7f) | 0x80);
      rest = Math.floor(rest / 0x80);
    }

    this.byte(rest);
  }

  varint64(value) {
    let rest = BigInt.asUintN(64, value);
    while (rest >= 0x80n) {
      this.byte(Number(rest & 0x7fn) | 0x80);
      rest >>= 7n;
    }

    this.byte(Number(rest));
  }

  // zigzag: (n << 1) ^ (n >> 31), or >> 63, with >> the arithmetic shift.
  zigzag32(value) {
    this.varint32(((value << 1) ^ (value >> 31)) >>> 0);
  }

  zigzag64(value) {
    this.varint64((value << 1n) ^ (value >> 63n));
  }

  nullableCount(array) {
    this.varint32(array === null ? 0 : array.length + 1);
  }

  /** A text chosen by textEncoding, in the layout of its kind. */
  text(encoding) {
    if (encoding.kind === 0) {
      return;
    }

    if (encoding.kind !== 3) {
      this.varint32(encoding.prefixLength);
    }

    if (encoding.kind === 1) {
      const text = utf8Encoder.encode(encoding.text);
      this.varint32(text.length * 2 + (encoding.number === null ? 0 : 1));
      this.raw(text);
    }

    if (encoding.number !== null) {
      this.varint64(encoding.number);
    }
  }

  finish() {
    return this.bytes.slice(0, this.length);
  }
}

function stemLengthOf(text) {
  return text.length - trailingDigitCount(text.length, (index) => text.charCodeAt(index));
}

/** A canonical decimal: ASCII digits without leading zeros ("0" is one), at most 19 of them. */
function isCanonicalDecimal(digits) {
  return digits.length > 0 && digits.length <= maxNumberDigits && (digits === '0' || digits[0] !== '0');
}

/**
 * Writer choices 1-3: how a member text is written after the previous member's value of the same field. Both are
 * well-formed strings (previous is '' for null), compared by UTF-16 code unit as the spec's choices are stated.
 * Returns { kind, prefixLength (UTF-8 bytes), text (the suffix before any number), number (a BigInt or null) }.
 */
function textEncoding(value, previous) {
  if (value === null) {
    return { kind: 0, prefixLength: 0, text: '', number: null };
  }

  // 1. Stem first: the value is stem(previous) followed by a canonical decimal of at most 19 digits.
  const stemLength = stemLengthOf(previous);
  if (stemLengthOf(value) === stemLength && value.startsWith(previous.slice(0, stemLength))) {
    const digits = value.slice(stemLength);
    if (isCanonicalDecimal(digits)) {
      return { kind: 3, prefixLength: 0, text: '', number: BigInt(digits) };
    }
  }

  // 2. Prefix: the longest common prefix in whole code points, then no suffix that starts with a 0 continuing digits.
  let common = 0;
  while (common < value.length && common < previous.length && value.charCodeAt(common) === previous.charCodeAt(common)) {
    common++;
  }

  const isHighSurrogate = (code) => code >= 0xd800 && code <= 0xdbff;
  if (common > 0 && isHighSurrogate(value.charCodeAt(common - 1))) {
    common--;
  }

  while (common > 0 && value[common] === '0' && isAsciiDigit(value.charCodeAt(common - 1))) {
    common--;
  }

  const prefixLength = utf8Encoder.encode(value.slice(0, common)).length;
  const suffix = value.slice(common);

  // 3. Number: the last 19 digits at most of the suffix, without their leading zeros but for a last 0.
  let numberStart = suffix.length - Math.min(trailingDigitCount(suffix.length, (index) => suffix.charCodeAt(index)), maxNumberDigits);
  if (numberStart === suffix.length) {
    return { kind: 1, prefixLength, text: suffix, number: null };
  }

  while (numberStart < suffix.length - 1 && suffix[numberStart] === '0') {
    numberStart++;
  }

  const number = BigInt(suffix.slice(numberStart));
  return numberStart === 0
    ? { kind: 2, prefixLength, text: '', number }
    : { kind: 1, prefixLength, text: suffix.slice(0, numberStart), number };
}

/** Value: the integer form when the double is integral, -2^63 <= value < 2^63 and not -0.0. */
function isIntegerForm(value) {
  return Number.isInteger(value) && value >= -twoTo63 && value < twoTo63 && !Object.is(value, -0);
}

// Texts: a string whose UTF-16 is not well formed is written with U+FFFD for each lone surrogate. The writer's
// choices and the next member's previous value work on the replaced string, which is what a reader will see.
function wellFormed(text) {
  return text === null ? null : text.toWellFormed();
}

/** Writes a whole payload, following the spec's writer choices. */
export function encodeBinary(organization) {
  const writer = new PayloadWriter();
  writer.raw(magic);
  writer.byte(version);
  writer.zigzag32(organization.id);

  writer.nullableCount(organization.tags);
  for (const tag of organization.tags ?? []) {
    if (tag === null) {
      writer.varint32(0);
    } else {
      const bytes = utf8Encoder.encode(tag);
      writer.varint32(bytes.length + 1);
      writer.raw(bytes);
    }
  }

  writer.nullableCount(organization.members);
  let previous = { id: 0, updateTime: 0n, name: '', description: '', address: '' };
  for (const member of organization.members ?? []) {
    const name = wellFormed(member.name);
    const description = wellFormed(member.description);
    const address = wellFormed(member.address);
    const nameEncoding = textEncoding(name, previous.name);
    const descriptionEncoding = textEncoding(description, previous.description);
    const addressEncoding = textEncoding(address, previous.address);

    // The bits decide, not the number, so that a NaN keeps its payload (see the top of this file).
    const valueBits = member.valueBits ?? bitsOf(member.value);
    const value = doubleFromBits(valueBits);
    const consecutive = member.id === ((previous.id + 1) | 0);
    const flags = (consecutive ? consecutiveIdFlag : 0)
      | (nameEncoding.kind << nameKindShift)
      | (descriptionEncoding.kind << descriptionKindShift)
      | (addressEncoding.kind << addressKindShift)
      | (isIntegerForm(value) ? integerValueFlag : 0);

    writer.byte(flags);
    if (!consecutive) {
      writer.zigzag32((member.id - previous.id) | 0);
    }

    writer.text(nameEncoding);
    writer.text(descriptionEncoding);
    writer.text(addressEncoding);
    if (isIntegerForm(value)) {
      writer.zigzag64(BigInt(value));
    } else {
      const bits = new DataView(new ArrayBuffer(8));
      bits.setBigUint64(0, BigInt(`0x${valueBits}`), true);
      writer.raw(new Uint8Array(bits.buffer));
    }

    writer.zigzag64(BigInt.asIntN(64, member.updateTime - previous.updateTime));
    previous = { id: member.id, updateTime: member.updateTime, name: name ?? '', description: description ?? '', address: address ?? '' };
  }

  return writer.finish();
}
