// Decodes one body off the page's thread and reports how long that took and how many members came out. JSON is
// UTF-8 decoded and given to JSON.parse; binary goes to the API's reference reader.
import { decodeBinary } from './webserialization-binary.mjs';

const decoders = {
  json: (bytes) => JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)),
  binary: (bytes) => decodeBinary(bytes),
};

self.onmessage = ({ data: { format, buffer } }) => {
  const decodeOne = decoders[format];
  if (!decodeOne) {
    self.postMessage({ error: `no reader ships for ${format}` });
    return;
  }

  try {
    const started = performance.now();
    const organization = decodeOne(new Uint8Array(buffer));
    const ms = performance.now() - started;
    self.postMessage({ ms, members: organization.members?.length ?? 0 });
  } catch (error) {
    self.postMessage({ error: `${format}: ${error.message}` });
  }
};
