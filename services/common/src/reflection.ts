import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { Server } from '@grpc/grpc-js';
import { loadSync, type PackageDefinition } from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';

const HEALTH_SERVICE = 'grpc.health.v1.Health';

function protoFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith('.proto')) out.push(relative(root, join(dir, e.name)));
    }
  };
  walk(join(root, 'accord'));
  return out.sort();
}

let cached: PackageDefinition | undefined;

/**
 * Every Accord .proto (from the @accord/proto package, the same sources ts-proto compiles) plus
 * the standard health service, as one descriptor set. Loaded once per process.
 */
export function accordPackageDefinition(): PackageDefinition {
  if (cached) return cached;
  const protoRoot = dirname(require.resolve('@accord/proto/package.json'));
  const healthRoot = join(dirname(require.resolve('grpc-health-check/package.json')), 'proto');
  const files = protoFiles(protoRoot);
  if (existsSync(join(healthRoot, 'health', 'v1', 'health.proto'))) files.push('health/v1/health.proto');
  cached = loadSync(files, { includeDirs: [protoRoot, healthRoot], keepCase: true, longs: String, enums: String, defaults: true, oneofs: true });
  return cached;
}

/** Adds gRPC server reflection listing the given services and the health service. */
export function addReflection(server: Pick<Server, 'addService'>, services: string[]): void {
  new ReflectionService(accordPackageDefinition(), { services: [...services, HEALTH_SERVICE] }).addToServer(server);
}
