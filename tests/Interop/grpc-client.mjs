// Calls the server's gRPC service with @grpc/grpc-js, from stubs that @grpc/proto-loader builds out of the .proto file
// the server publishes (not a copy), and prints the organization it received as canonical JSON (see canonical.mjs).
//
//   node grpc-client.mjs <organization.proto> <host:port> <unary|stream> <count>
//
// unary:  OrganizationService.GetOrganization; stream: OrganizationService.StreamOrganization, whose parts are merged
// as protobuf merges messages (the last non-zero Id wins, Tags and Members append).
import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';
import { toCanonicalJson } from './canonical.mjs';

const [schemaPath, address, method, count] = process.argv.slice(2);
if (!schemaPath || !address || !['unary', 'stream'].includes(method) || count === undefined) {
  process.stderr.write('usage: node grpc-client.mjs <organization.proto> <host:port> <unary|stream> <count>\n');
  process.exit(2);
}

// defaults: false leaves absent fields unset, so a string the server left out reads as null, as in decode.mjs.
const definition = protoLoader.loadSync(schemaPath, { keepCase: true, longs: String, defaults: false });
const { OrganizationService } = grpc.loadPackageDefinition(definition).webserialization;
const client = new OrganizationService(address, grpc.credentials.createInsecure(), {
  'grpc.max_receive_message_length': -1,
});
const request = { Count: Number(count) };

const organization = { id: 0, tags: [], members: [] };
function merge(message) {
  if (message.Id) {
    organization.id = message.Id;
  }

  organization.tags.push(...(message.Tags ?? []));
  for (const member of message.Members ?? []) {
    organization.members.push({
      id: member.Id ?? 0,
      name: member.Name ?? null,
      description: member.Description ?? null,
      address: member.Address ?? null,
      value: member.Value ?? 0,
      updateTime: BigInt(member.UpdateTime ?? '0'),
    });
  }
}

function finish(error) {
  client.close();
  if (error) {
    process.stderr.write(`${method} failed: ${error.code} ${error.details ?? error.message}\n`);
    process.exit(1);
  }

  // proto3 cannot tell an absent repeated field from an empty one; the .NET decoder reads both as null.
  process.stdout.write(toCanonicalJson({
    id: organization.id,
    tags: organization.tags.length > 0 ? organization.tags : null,
    members: organization.members.length > 0 ? organization.members : null,
  }));
}

if (method === 'unary') {
  client.GetOrganization(request, (error, message) => {
    if (!error) {
      merge(message);
    }

    finish(error);
  });
} else {
  const call = client.StreamOrganization(request);
  call.on('data', merge);
  call.on('error', finish);
  call.on('end', () => finish(null));
}
