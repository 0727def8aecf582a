#!/usr/bin/env node
// CPU per event of the write path's validation (validateInputs, batches of 100) with and without
// signals: a TC string of a realistic size (the IAB encoder, 800 vendors), a GPP string (uspv1,
// usnat, usca), a jurisdiction; every event with its own TC string, or all sharing one (decoded
// once per request). Alternating rounds, process.cpuUsage. Run after `npm run build`:
//   node services/consent/scripts/signals-cpu.js
const { GVL, TCModel, TCString } = require('@iabtechlabtcf/core');
const { GppModel } = require('@iabgpp/cmpapi');
const { validateInputs } = require('../dist/domain/consent');

const vendor = (id) => ({
  id,
  name: `v${id}`,
  purposes: [1, 3],
  legIntPurposes: [2],
  flexiblePurposes: [],
  specialPurposes: [],
  features: [],
  specialFeatures: [],
});
// the tests' vendor list (policy version 5: TCF 2.3) with 800 vendors
const gvl = new GVL({
  ...require('../test/fixtures/tcf-vendor-list.json'),
  vendors: Object.fromEntries(Array.from({ length: 800 }, (_, i) => [i + 1, vendor(i + 1)])),
});
const m = new TCModel(gvl);
m.cmpId = 10;
m.cmpVersion = 2;
m.purposeConsents.set([1, 2, 3, 4, 7, 9, 10]);
m.purposeLegitimateInterests.set([2, 7, 8]);
m.specialFeatureOptins.set([1]);
m.vendorConsents.set(Array.from({ length: 800 }, (_, i) => i + 1).filter((i) => i % 3));
m.vendorLegitimateInterests.set(Array.from({ length: 800 }, (_, i) => i + 1).filter((i) => i % 5));
const tc = TCString.encode(m);
/** 100 different TC strings of the same size (one per event of a batch: the worst case). */
const tcs = Array.from({ length: 100 }, (_, i) => {
  m.cmpVersion = 3 + i;
  return TCString.encode(m);
});
const g = new GppModel();
g.setFieldValue('uspv1', 'Notice', 'Y');
g.setFieldValue('uspv1', 'OptOutSale', 'Y');
g.setFieldValue('usnat', 'SaleOptOut', 1);
g.setFieldValue('usca', 'SaleOptOut', 1);
const gpp = g.encode();

const base = { subject: 'user-1', issuer: 'https://shop.example', target: 'https://shop.example/privacy', action: true };
const same = (input) => Array.from({ length: 100 }, () => input);
const cases = {
  'no signals': same(base),
  'gpc + jurisdiction': same({ ...base, gpc: true, jurisdiction: 'US-CA' }),
  [`own TC string (${tc.length} chars)`]: tcs.map((tcString) => ({ ...base, tcString })),
  'shared TC string': same({ ...base, tcString: tc }),
  [`shared GPP string (${gpp.length} chars)`]: same({ ...base, gppString: gpp }),
  'own TC + shared GPP + gpc + jurisdiction': tcs.map((tcString) => ({ ...base, gpc: true, jurisdiction: 'US-CA', tcString, gppString: gpp })),
};
const N = 2000;
const total = Object.fromEntries(Object.keys(cases).map((k) => [k, 0]));
for (let round = 0; round < 5; round++)
  for (const [name, batch] of Object.entries(cases)) {
    const t = process.cpuUsage();
    for (let i = 0; i < N / 100; i++) validateInputs(batch);
    const u = process.cpuUsage(t);
    if (round > 0) total[name] += (u.user + u.system) / N;
  }
for (const [name, us] of Object.entries(total)) console.log(`${name.padEnd(44)} ${(us / 4).toFixed(1)} µs CPU per event`);
