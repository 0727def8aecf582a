import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { Server } from '@grpc/grpc-js';
import { loadSync, type PackageDefinition } from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import * as descriptor from 'protobufjs/ext/descriptor';

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
  cached = qualifyTypeNames(
    loadSync(files, { includeDirs: [protoRoot, healthRoot], keepCase: true, longs: String, enums: String, defaults: true, oneofs: true }),
  );
  return cached;
}

interface Named {
  name?: string;
  nestedType?: Named[];
  enumType?: Named[];
  field?: Array<{ name?: string; typeName?: string; jsonName?: string }>;
  method?: Array<{ inputType?: string; outputType?: string }>;
}

/**
 * protobufjs writes type references relative to their scope (`common.v1.JwkSet` inside
 * `accord.oauth.v1`); grpcurl and other Go clients only accept fully qualified names in
 * descriptors, and need each file's imports listed. Rewrites every reference to `.package.Type`
 * (protobuf's scoping rules) and lists the files those types live in as imports.
 */
function qualifyTypeNames(def: PackageDefinition): PackageDefinition {
  type File = { name?: string; package?: string; dependency?: string[]; messageType?: Named[]; enumType?: Named[]; service?: Named[] };
  const decoded = new Map<Buffer, File>();
  for (const entry of Object.values(def)) {
    for (const bin of (entry as { fileDescriptorProtos?: Buffer[] }).fileDescriptorProtos ?? []) {
      if (!decoded.has(bin)) decoded.set(bin, descriptor.FileDescriptorProto.decode(bin) as unknown as File);
    }
  }
  /** Fully qualified type name → the file that defines it. */
  const known = new Map<string, string>();
  const collect = (file: string, scope: string, items: Named[] | undefined) => {
    for (const m of items ?? []) {
      const fq = `${scope}.${m.name}`;
      known.set(fq, file);
      collect(file, fq, m.nestedType);
      collect(file, fq, m.enumType);
    }
  };
  for (const f of decoded.values()) {
    const pkg = f.package ? `.${f.package}` : '';
    collect(f.name ?? '', pkg, f.messageType);
    collect(f.name ?? '', pkg, f.enumType);
  }
  let deps = new Set<string>();
  const resolve = (scope: string, name: string | undefined): string | undefined => {
    if (!name) return name;
    for (let s = name.startsWith('.') ? '' : scope; ; s = s.slice(0, s.lastIndexOf('.'))) {
      const fq = name.startsWith('.') ? name : `${s}.${name}`;
      const file = known.get(fq);
      if (file !== undefined) {
        deps.add(file);
        return fq;
      }
      if (!s) return name;
    }
  };
  const fixMessages = (scope: string, items: Named[] | undefined) => {
    for (const m of items ?? []) {
      const fq = `${scope}.${m.name}`;
      for (const field of m.field ?? []) {
        field.typeName = resolve(fq, field.typeName);
        // protoc's JSON name (lowerCamelCase), which protobufjs leaves as the proto name.
        field.jsonName = (field.name ?? '').replace(/_+([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
      }
      fixMessages(fq, m.nestedType);
    }
  };
  const rewritten = new Map<Buffer, Buffer>();
  for (const [bin, f] of decoded) {
    const pkg = f.package ? `.${f.package}` : '';
    deps = new Set<string>();
    fixMessages(pkg, f.messageType);
    for (const svc of f.service ?? [])
      for (const m of svc.method ?? []) {
        m.inputType = resolve(pkg, m.inputType);
        m.outputType = resolve(pkg, m.outputType);
      }
    deps.delete(f.name ?? '');
    // Imports, so that clients building descriptors find the referenced files.
    f.dependency = [...deps].sort();
    rewritten.set(bin, Buffer.from(descriptor.FileDescriptorProto.encode(f as never).finish()));
  }
  const out: PackageDefinition = {};
  for (const [name, entry] of Object.entries(def)) {
    const protos = (entry as { fileDescriptorProtos?: Buffer[] }).fileDescriptorProtos;
    out[name] = (protos ? { ...entry, fileDescriptorProtos: protos.map((b) => rewritten.get(b) ?? b) } : entry) as PackageDefinition[string];
  }
  return out;
}

/** Adds gRPC server reflection listing the given services and the health service. */
export function addReflection(server: Pick<Server, 'addService'>, services: string[]): void {
  new ReflectionService(accordPackageDefinition(), { services: [...services, HEALTH_SERVICE] }).addToServer(server);
}
