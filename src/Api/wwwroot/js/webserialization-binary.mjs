// The WebSerialization binary format, version 1, read and written from docs/binary-format.md alone: it shares no
// code with src/Models/Binary and was not ported from it, so that the .NET codec is checked against a second reading
// of the spec. Section names in the comments are the spec's.
//
// The reference reader for browsers and Node: the API serves this file at /js/webserialization-binary.mjs, the page at
// / decodes with it, and tests/Interop imports it from here, so there is one JavaScript implementation. It is a plain
// ES module with no imports, which both load as it is. The writer, webserialization-binary-writer.mjs beside it,
// takes the format's constants from here.
//
// decodeBinary(bytes) takes a Uint8Array and returns { id, tags, members }, each member { id, name, description,
// address, value, valueBits, updateTime (a BigInt) }; encodeBinary(organization), in the writer, takes the same shape.
// Each double also carries valueBits (the 16 hex digits of its IEEE 754 bits), because ECMAScript lets an engine
// change a NaN's payload whenever it stores one: the bits, not the number, are what is read and written.

const scratch = new DataView(new ArrayBuffer(8));

/** The IEEE 754 bits of a double, as 16 lowercase hex digits (a member's valueBits). */
export function bitsOf(value) {
  scratch.setFloat64(0, value);
  return scratch.getUint32(0).toString(16).padStart(8, '0') + scratch.getUint32(4).toString(16).padStart(8, '0');
}

/** The double whose IEEE 754 bits are the 16 hex digits given. */
export function doubleFromBits(hex) {
  if (!/^[0-9a-f]{16}$/.test(hex)) {
    throw new Error(`valueBits must be 16 lowercase hex digits, not ${JSON.stringify(hex)}`);
  }

  scratch.setBigUint64(0, BigInt(`0x${hex}`));
  return scratch.getFloat64(0);
}

// Payload: the magic "WSBF" and the version byte.
export const magic = [0x57, 0x53, 0x42, 0x46];
export const version = 1;

// Text: a number must be below 10^19, so that it has at most 19 digits.
const numberLimit = 10n ** 19n;
export const maxNumberDigits = 19;

// Member flags.
export const consecutiveIdFlag = 0x01;
export const integerValueFlag = 0x80;
export const nameKindShift = 1;
export const descriptionKindShift = 3;
export const addressKindShift = 5;

// Texts: ill-formed UTF-8 is Malformed. ignoreBOM keeps a leading U+FEFF, which is part of a text, not a marker.
const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const noBytes = new Uint8Array(0);

/** A payload the spec's Reading section rejects: kind is "Malformed" or "Truncated", offset where it was found. */
export class BinaryFormatError extends Error {
  constructor(kind, offset, message) {
    super(`${kind} at offset ${offset}: ${message}`);
    this.name = 'BinaryFormatError';
    this.kind = kind;
    this.offset = offset;
  }
}

export function isAsciiDigit(code) {
  return code >= 0x30 && code <= 0x39;
}

/** How many ASCII digits end the string (or byte array) of the given length whose code at an index is codeAt(index). */
export function trailingDigitCount(length, codeAt) {
  let count = 0;
  while (count < length && isAsciiDigit(codeAt(length - 1 - count))) {
    count++;
  }

  return count;
}

// A varint of up to 7 bytes holds less than 2^49, which a Number holds exactly.
const smallVarintBytes = 7;
const powersOf128 = Array.from({ length: smallVarintBytes }, (_, index) => 2 ** (7 * index));

/** zigzag, read back from an unsigned Number below 2^53 as z / 2 or -(z + 1) / 2 (exact, where shifts are 32-bit). */
function unzigzag(zigzag) {
  return zigzag % 2 === 0 ? zigzag / 2 : -(zigzag + 1) / 2;
}

/** The UTF-8 bytes of a string of ASCII digits. */
function asciiBytes(digits) {
  const bytes = new Uint8Array(digits.length);
  for (let index = 0; index < digits.length; index++) {
    bytes[index] = digits.charCodeAt(index);
  }

  return bytes;
}

function concatBytes(...parts) {
  const result = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    result.set(part, offset);
    offset += part.length;
  }

  return result;
}

// ---- Reading ----

class PayloadReader {
  constructor(bytes) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.offset = 0;
  }

  malformed(offset, message) {
    throw new BinaryFormatError('Malformed', offset, message);
  }

  ensure(length, what) {
    if (length > this.bytes.length - this.offset) {
      throw new BinaryFormatError('Truncated', this.bytes.length, `${what} needs ${length} bytes, ${this.bytes.length - this.offset} remain`);
    }
  }

  byte(what) {
    this.ensure(1, what);
    return this.bytes[this.offset++];
  }

  take(length, what) {
    this.ensure(length, what);
    const bytes = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return bytes;
  }

  // varint32, varint64: at most 5 (10) bytes, the last of which may not exceed 0x0F (0x01), and minimal. Each rule
  // is checked on the byte that breaks it, so a run of continuation bytes fails at the 5th (10th) byte.
  varint32(what) {
    let value = 0;
    for (let index = 0; ; index++) {
      const offset = this.offset;
      const byte = this.byte(what);
      if (index === 4 && byte > 0x0f) {
        this.malformed(offset, `${what}: a varint32 longer than 5 bytes or above 32 bits (5th byte ${byte})`);
      }

      if (index > 0 && byte === 0) {
        this.malformed(offset, `${what}: a varint that is not minimal (ends with 0x00)`);
      }

      // Multiplication rather than shifts: JavaScript's shifts are 32-bit signed.
      value += (byte & 0x7f) * 2 ** (7 * index);
      if ((byte & 0x80) === 0) {
        return value;
      }
    }
  }

  varint64(what) {
    let value = 0n;
    for (let index = 0; ; index++) {
      const offset = this.offset;
      const byte = this.byte(what);
      if (index === 9 && byte > 0x01) {
        this.malformed(offset, `${what}: a varint64 longer than 10 bytes or above 64 bits (10th byte ${byte})`);
      }

      if (index > 0 && byte === 0) {
        this.malformed(offset, `${what}: a varint that is not minimal (ends with 0x00)`);
      }

      value |= BigInt(byte & 0x7f) << BigInt(7 * index);
      if ((byte & 0x80) === 0) {
        return value;
      }
    }
  }

  // zigzag32, zigzag64: read back from the unsigned value as (z >>> 1) ^ -(z & 1), with a logical shift.
  zigzag32(what) {
    const zigzag = this.varint32(what);
    return (zigzag >>> 1) ^ -(zigzag & 1);
  }

  zigzag64(what) {
    const small = this.smallVarint64(what);
    if (small !== null) {
      return BigInt(unzigzag(small));
    }

    const zigzag = this.varint64(what);
    return (zigzag >> 1n) ^ -(zigzag & 1n);
  }

  // A varint64 that ends within its first 7 bytes, as a Number: below 2^49, so exact, and read without BigInt, which
  // is most of a member's cost. The checks are varint64's, in its order; a longer varint is left unread (null), for
  // varint64 to read from the same offset.
  smallVarint64(what) {
    const start = this.offset;
    let value = 0;
    for (let index = 0; index < smallVarintBytes; index++) {
      const offset = this.offset;
      const byte = this.byte(what);
      if (index > 0 && byte === 0) {
        this.malformed(offset, `${what}: a varint that is not minimal (ends with 0x00)`);
      }

      value += (byte & 0x7f) * powersOf128[index];
      if ((byte & 0x80) === 0) {
        return value;
      }
    }

    this.offset = start;
    return null;
  }

  utf8(bytes, offset, what) {
    try {
      return utf8Decoder.decode(bytes);
    } catch {
      return this.malformed(offset, `${what}: ill-formed UTF-8`);
    }
  }

  // Text: a number is below 10^19. Returns its digits as a string; below 2^49 it is read without BigInt.
  number(what) {
    const small = this.smallVarint64(what);
    if (small !== null) {
      return String(small);
    }

    const offset = this.offset;
    const number = this.varint64(what);
    if (number >= numberLimit) {
      this.malformed(offset, `${what}: number ${number} has more than ${maxNumberDigits} digits`);
    }

    return number.toString();
  }

  prefix(previous, what) {
    const offset = this.offset;
    const prefixLength = this.varint32(`${what} prefixLength`);
    if (prefixLength > previous.length) {
      this.malformed(offset, `${what}: prefixLength ${prefixLength} exceeds the previous value's ${previous.length} bytes`);
    }

    return previous.subarray(0, prefixLength);
  }

  /**
   * A member text of the given kind after the previous value of its field (its UTF-8 bytes and its string, '' for
   * null); returns the value's UTF-8 bytes (the next member's previous) and its string, or nulls.
   */
  text(kind, previous, previousText, what) {
    const offset = this.offset;
    let bytes;
    switch (kind) {
      case 0:
        return { bytes: noBytes, value: null };
      case 1: {
        const prefix = this.prefix(previous, what);
        const lengthAndFlag = this.varint32(`${what} textLengthAndNumberFlag`);
        const text = this.take(Math.floor(lengthAndFlag / 2), `${what} text`);
        bytes = concatBytes(prefix, text, lengthAndFlag % 2 === 1 ? asciiBytes(this.number(`${what} number`)) : noBytes);
        break;
      }
      case 2:
        bytes = concatBytes(this.prefix(previous, what), asciiBytes(this.number(`${what} number`)));
        break;
      default: {
        // stem(previous): previous without all its trailing ASCII digits.
        // The previous value was well formed and its stem ends before ASCII digits only, so the stem and digits are
        // well formed too, and its string is the previous string cut by as many chars as bytes: no decode needed.
        const digitCount = trailingDigitCount(previous.length, (index) => previous[index]);
        const digits = this.number(`${what} number`);
        return {
          bytes: concatBytes(previous.subarray(0, previous.length - digitCount), asciiBytes(digits)),
          value: previousText.slice(0, previousText.length - digitCount) + digits,
        };
      }
    }

    // A prefix may end inside a UTF-8 sequence; only the whole value must be well formed.
    return { bytes, value: this.utf8(bytes, offset, what) };
  }

  /** Value: an integer that binary64 holds exactly (flags bit 7), or 8 little-endian bytes of IEEE 754 bits. */
  value(flags, what) {
    if ((flags & integerValueFlag) !== 0) {
      const small = this.smallVarint64(what);
      if (small !== null) {
        const value = unzigzag(small);
        return { value, valueBits: bitsOf(value) };
      }

      const offset = this.offset;
      const integer = this.zigzag64(what);
      const value = Number(integer);
      if (BigInt(value) !== integer) {
        this.malformed(offset, `${what}: the integer ${integer} is not exactly a double`);
      }

      return { value, valueBits: bitsOf(value) };
    }

    this.ensure(8, what);
    const bits = this.view.getBigUint64(this.offset, true).toString(16).padStart(16, '0');
    this.offset += 8;
    return { value: doubleFromBits(bits), valueBits: bits };
  }

  member(previous, index) {
    const what = `member ${index}`;
    const flags = this.byte(`${what} flags`);

    // Deltas wrap around in the field's width: 32 bits for ids, 64 for times.
    const id = (flags & consecutiveIdFlag) !== 0 ? (previous.id + 1) | 0 : (previous.id + this.zigzag32(`${what} idDelta`)) | 0;
    const name = this.text((flags >> nameKindShift) & 3, previous.name, previous.nameText, `${what} Name`);
    const description = this.text((flags >> descriptionKindShift) & 3, previous.description, previous.descriptionText, `${what} Description`);
    const address = this.text((flags >> addressKindShift) & 3, previous.address, previous.addressText, `${what} Address`);
    const { value, valueBits } = this.value(flags, `${what} Value`);
    const updateTime = BigInt.asIntN(64, previous.updateTime + this.zigzag64(`${what} updateTimeDelta`));
    return {
      member: { id, name: name.value, description: description.value, address: address.value, value, valueBits, updateTime },
      next: {
        id,
        updateTime,
        name: name.bytes,
        nameText: name.value ?? '',
        description: description.bytes,
        descriptionText: description.value ?? '',
        address: address.bytes,
        addressText: address.value ?? '',
      },
    };
  }
}

/** Reads a whole payload, or throws BinaryFormatError. */
export function decodeBinary(bytes) {
  const reader = new PayloadReader(bytes);

  // Magic bytes are checked as they arrive, so a wrong one is Malformed even in a truncated payload, and reported at
  // offset 0, the start of the magic, whichever byte differs.
  for (const expected of magic) {
    if (reader.byte('magic') !== expected) {
      reader.malformed(0, 'not the magic "WSBF"');
    }
  }

  const versionOffset = reader.offset;
  const payloadVersion = reader.byte('version');
  if (payloadVersion !== version) {
    reader.malformed(versionOffset, `version ${payloadVersion}, only ${version} is implemented`);
  }

  const id = reader.zigzag32('organizationId');

  // Nullable counts and lengths are n + 1; 0 is null. Nothing is allocated for a count up front, so a count far
  // beyond the bytes there are fails as Truncated when the bytes run out.
  const tagCountPlusOne = reader.varint32('tagCountPlusOne');
  let tags = null;
  if (tagCountPlusOne > 0) {
    tags = [];
    for (let index = 0; index < tagCountPlusOne - 1; index++) {
      const lengthPlusOne = reader.varint32(`tag ${index} lengthPlusOne`);
      const offset = reader.offset;
      tags.push(lengthPlusOne === 0 ? null : reader.utf8(reader.take(lengthPlusOne - 1, `tag ${index}`), offset, `tag ${index}`));
    }
  }

  const memberCountPlusOne = reader.varint32('memberCountPlusOne');
  let members = null;
  if (memberCountPlusOne > 0) {
    members = [];

    // The member before the first one: Id 0, UpdateTime 0 and null texts.
    let previous = { id: 0, updateTime: 0n, name: noBytes, nameText: '', description: noBytes, descriptionText: '', address: noBytes, addressText: '' };
    for (let index = 0; index < memberCountPlusOne - 1; index++) {
      const { member, next } = reader.member(previous, index);
      members.push(member);
      previous = next;
    }
  }

  // There is no footer: the payload ends with the last member (or the member count), and any byte after is Malformed.
  if (reader.offset !== bytes.length) {
    reader.malformed(reader.offset, `${bytes.length - reader.offset} bytes after the end of the payload`);
  }

  return { id, tags, members };
}
