// Validates Kubernetes objects (JSON array on stdin) against the Kubernetes OpenAPI schemas
// bundled in the kubernetes-models package, offline. Prints a JSON array of
// { kind, name, error } (error null when valid). Runs as a separate ESM process because
// kubernetes-models is ESM-only and jest loads the tests as CommonJS.
const input = JSON.parse(
  await new Promise((resolve) => {
    let s = '';
    process.stdin.on('data', (d) => (s += d)).on('end', () => resolve(s));
  }),
);

const results = [];
for (const obj of input) {
  const [group, version] = obj.apiVersion.includes('/') ? obj.apiVersion.split('/') : ['', obj.apiVersion];
  const modPath = group ? `kubernetes-models/${group}/${version}/${obj.kind}` : `kubernetes-models/${version}/${obj.kind}`;
  let error = null;
  try {
    const mod = await import(modPath);
    const Model = mod[obj.kind];
    if (!Model) throw new Error(`no model ${obj.kind} in ${modPath}`);
    new Model(obj).validate();
  } catch (err) {
    error = `${err.message}`;
  }
  results.push({ kind: obj.kind, name: obj.metadata?.name, error });
}
process.stdout.write(JSON.stringify(results));
