// skaffold.yaml stays in step with the chart: one artifact per component from the one
// Dockerfile, and every value it sets (including in profiles) is accepted by the chart schema.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { COMPONENTS, container, deployment, envOf, render } from './helm';

const ROOT = path.resolve(__dirname, '..', '..', '..');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const skaffold: any = parse(fs.readFileSync(path.join(ROOT, 'skaffold.yaml'), 'utf8'));
const release = skaffold.deploy.helm.releases[0];

/** Fills skaffold's image template fields like skaffold would for a pushed image. */
function fill(tpl: string): string {
  return tpl
    .replace(/\{\{\.IMAGE_REPO_accord_(\w+)\}\}/g, 'registry.local/accord/$1')
    .replace(/\{\{\.IMAGE_TAG_accord_(\w+)\}\}/g, 'abc123')
    .replace(/\{\{\.IMAGE_DIGEST_accord_(\w+)\}\}/g, 'sha256:' + 'a'.repeat(64));
}

function profileValues(name: string): Record<string, string> {
  const out: Record<string, string> = {};
  const profile = skaffold.profiles.find((p: { name: string }) => p.name === name);
  expect(profile).toBeDefined();
  for (const patch of profile.patches) {
    // single keys only: a patch replacing the whole map would drop other profiles' keys
    const m = /^\/deploy\/helm\/releases\/0\/setValues\/(.+)$/.exec(patch.path);
    expect([patch.op, m?.[1]]).toEqual(['add', expect.any(String)]);
    out[m![1]] = String(patch.value);
  }
  return out;
}

describe('skaffold.yaml', () => {
  it('builds one image per component from deploy/Dockerfile with the SERVICE build arg', () => {
    expect(skaffold.apiVersion).toMatch(/^skaffold\/v4beta\d+$/);
    const artifacts = skaffold.build.artifacts;
    expect(artifacts.map((a: { image: string }) => a.image).sort()).toEqual(COMPONENTS.map((c) => `accord/${c}`).sort());
    for (const a of artifacts) {
      expect(a.context).toBe('.');
      expect(a.docker.dockerfile).toBe('deploy/Dockerfile');
      expect(`accord/${a.docker.buildArgs.SERVICE}`).toBe(a.image);
    }
    expect(fs.existsSync(path.join(ROOT, 'deploy', 'Dockerfile'))).toBe(true);
  });

  it('deploys charts/accord and sets every component image from the build', () => {
    expect(release.chartPath).toBe('charts/accord');
    const set = Object.fromEntries(Object.entries(release.setValueTemplates).map(([k, v]) => [k, fill(String(v))]));
    const objs = render({ setString: set });
    for (const c of COMPONENTS) {
      expect(container(deployment(objs, c)).image).toBe(`registry.local/accord/${c}:abc123@sha256:${'a'.repeat(64)}`);
    }
  });

  it('has profiles bundled, debug and network-policies whose values the chart accepts', () => {
    const base = Object.fromEntries(Object.entries(release.setValueTemplates).map(([k, v]) => [k, fill(String(v))]));
    expect(release.setValues).toEqual({});
    const bundled = render({ setString: base, set: profileValues('bundled') });
    expect(
      bundled
        .filter((o) => o.kind === 'StatefulSet')
        .map((o) => o.metadata.name)
        .sort(),
    ).toEqual(['accord-mongodb', 'accord-nats']);

    const debug = render({ setString: base, set: profileValues('debug') });
    expect(envOf(deployment(debug, 'consent')).LOG_LEVEL).toBe('debug');
    expect(envOf(deployment(debug, 'consent')).NODE_OPTIONS).toContain('--inspect');

    const np = render({ setString: base, set: profileValues('network-policies') });
    expect(np.filter((o) => o.kind === 'NetworkPolicy')).toHaveLength(COMPONENTS.length);
  });
});
