// Sediment Recon page: reads the JSON API and /prom of the server that served it (same origin only)
// and reads them again every few seconds while auto-refresh is on.
'use strict';

const PAGE = 10;
const SVG = 'http://www.w3.org/2000/svg';

async function get(path) {
  const r = await fetch('/api/v1' + path, { headers: { Accept: 'application/json' } });
  const body = await r.json();
  if (!r.ok) {
    throw new Error(path + ': ' + (body.message || r.status));
  }
  return body;
}

function text(id, value) {
  document.getElementById(id).textContent = String(value);
}

function cell(tr, value, title) {
  const td = document.createElement('td');
  td.textContent = value;
  if (title) {
    td.title = title;
  }
  tr.appendChild(td);
}

function when(millis) {
  return millis ? new Date(Number(millis)).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '';
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];

function bytes(n) {
  let i = 0;
  while (n >= 1024 && i < UNITS.length - 1) {
    n /= 1024;
    i += 1;
  }
  return (Number.isInteger(n) || n >= 100 ? Math.round(n) : n.toFixed(1)) + ' ' + UNITS[i];
}

// A table paged with prevKey: a stack of the cursors of the pages seen, to go back. A cursor is
// whatever load returned as next (null for the first page); it is never joined into a string,
// since keys may hold any character. A refresh reloads the page shown.
function pagedTable(name, load, row) {
  const state = { cursors: [null], page: 0 };
  const tbody = document.querySelector('#' + name + ' tbody');
  const prev = document.getElementById(name + '-prev');
  const next = document.getElementById(name + '-next');
  async function show() {
    const body = await load(state.cursors[state.page]);
    tbody.replaceChildren();
    for (const r of body.rows) {
      const tr = document.createElement('tr');
      row(tr, r);
      tbody.appendChild(tr);
    }
    state.cursors[state.page + 1] = body.next;
    prev.disabled = state.page === 0;
    next.disabled = !body.hasMore;
    text(name + '-page', 'page ' + (state.page + 1) + (body.rows.length ? '' : ' (empty)'));
  }
  prev.addEventListener('click', () => { state.page = Math.max(0, state.page - 1); show(); });
  next.addEventListener('click', () => { state.page += 1; show(); });
  return show;
}

const showOpenKeys = pagedTable('open-keys', async (cursor) => {
  const c = cursor || { key: '', table: '' };
  const b = await get('/keys/open?limit=' + PAGE + '&prevKey=' + encodeURIComponent(c.key)
      + '&prevKeyTable=' + encodeURIComponent(c.table));
  return { rows: b.nonFSO.concat(b.fso), hasMore: b.hasMore, next: { key: b.lastKey, table: b.lastKeyTable } };
}, (tr, r) => { cell(tr, r.path, r.key); cell(tr, r.table); cell(tr, when(r.inStateSince)); });

const showPendingDeletes = pagedTable('pending-deletes', async (cursor) => {
  const b = await get('/keys/deletePending?limit=' + PAGE + '&prevKey=' + encodeURIComponent(cursor || ''));
  return { rows: b.deletedKeyInfo, hasMore: b.hasMore, next: b.lastKey };
}, (tr, r) => { cell(tr, r.path, r.key); cell(tr, r.size); cell(tr, when(r.inStateSince)); });

// Draws into the element's chart, made on first use and redrawn in place by every refresh.
function chart(id, option) {
  const el = document.getElementById(id);
  if (!window.echarts) {
    el.textContent = 'chart library not loaded';
    return;
  }
  const c = echarts.getInstanceByDom(el) || echarts.init(el, null, { renderer: 'svg' });
  c.setOption(Object.assign({ animation: false, grid: { left: 150, right: 30, top: 30, bottom: 30 } },
      option), true);
}

// Replaces the element's chart, if any, with a line of text.
function noChart(id, message) {
  const el = document.getElementById(id);
  const c = window.echarts && echarts.getInstanceByDom(el);
  if (c) {
    c.dispose();
  }
  el.textContent = message;
}

async function showTables() {
  const t = await get('/db/tables');
  text('mode', t.store + ' · ' + t.mode);
  let tombstones = 0;
  for (const x of t.tables) {
    tombstones += x.tombstones;
  }
  text('tile-tombstones', tombstones);
  const names = t.tables.map((x) => x.name);
  chart('chart-tombstones', {
    legend: { top: 0 },
    tooltip: { trigger: 'axis' },
    yAxis: { type: 'category', data: names, inverse: true },
    xAxis: { type: 'value' },
    series: [
      { name: 'point (SST)', type: 'bar', stack: 't', data: t.tables.map((x) => x.pointTombstones) },
      { name: 'range (SST)', type: 'bar', stack: 't', data: t.tables.map((x) => x.rangeTombstones) },
      { name: 'point (memtable)', type: 'bar', stack: 't', data: t.tables.map((x) => x.memtableDeletes) },
      { name: 'range (memtable)', type: 'bar', stack: 't', data: t.tables.map((x) => x.memtableRangeDeletes) },
    ],
  });
}

async function showTombstones() {
  const t = await get('/db/tombstones');
  const hot = [];
  for (const table of t.tables) {
    for (const h of table.hotRanges) {
      hot.push(Object.assign({ table: table.name }, h));
    }
  }
  const tbody = document.querySelector('#hot-ranges tbody');
  tbody.replaceChildren();
  for (const h of hot) {
    const tr = document.createElement('tr');
    cell(tr, h.table);
    cell(tr, h.from + ' … ' + (h.to === null ? '+inf' : h.to));
    cell(tr, h.slowPasses);
    cell(tr, h.tombstonesSkipped);
    tbody.appendChild(tr);
  }
  if (hot.length === 0) {
    const tr = document.createElement('tr');
    cell(tr, 'none: no scan has kept skipping tombstones');
    tbody.appendChild(tr);
    noChart('chart-hot-ranges', '');
  } else chart('chart-hot-ranges', {
    tooltip: { trigger: 'axis' },
    yAxis: { type: 'category', data: hot.map((h) => h.table + ' ' + h.from), inverse: true },
    xAxis: { type: 'value', name: 'skipped' },
    series: [{ name: 'tombstones skipped', type: 'bar', data: hot.map((h) => h.tombstonesSkipped) }],
  });
  const c = t.compactions;
  text('compaction-counts', 'requested ' + c.requested + ' · completed ' + c.completed + ' · pinned '
      + c.pinned + ' · skipped ' + c.skipped + ' · failed ' + c.failed + ' · pending ' + c.pending);
  const rows = document.querySelector('#compactions tbody');
  rows.replaceChildren();
  if (c.recent.length === 0) {
    const tr = document.createElement('tr');
    cell(tr, 'none yet');
    rows.appendChild(tr);
  }
  for (const e of c.recent.slice().reverse()) {
    const tr = document.createElement('tr');
    cell(tr, when(e.atMillis));
    cell(tr, e.table);
    cell(tr, e.from + ' … ' + (e.to === null ? '+inf' : e.to));
    cell(tr, e.trigger);
    cell(tr, e.outcome);
    cell(tr, e.tombstonesBefore + ' → ' + e.tombstonesAfter);
    cell(tr, e.reason);
    rows.appendChild(tr);
  }
}

async function showSummary() {
  const [ns, open, pending] = await Promise.all([
    get('/namespace/summary?path=/'), get('/keys/open/summary'), get('/keys/deletePending/summary')]);
  text('tile-volumes', ns.countStats.numVolume);
  text('tile-buckets', ns.countStats.numBucket);
  text('tile-keys', ns.countStats.numKey);
  text('tile-open-keys', open.totalOpenKeys);
  text('tile-pending-deletes', pending.totalDeletedKeys);
}

// The root's du and each volume's: a treemap of volumes and their buckets (the largest 30 of
// each, as du sorts them; the rest of a volume is one "other" box).
async function showUsage() {
  const root = await get('/namespace/du?path=/');
  const volumes = await Promise.all(root.subPaths.filter((v) => v.size > 0).map(async (v) => {
    const du = await get('/namespace/du?path=' + encodeURIComponent(v.path));
    const children = du.subPaths.filter((b) => b.size > 0)
        .map((b) => ({ name: b.path.slice(v.path.length + 1), value: b.size }));
    const rest = v.size - children.reduce((sum, b) => sum + b.value, 0);
    if (rest > 0) {
      children.push({ name: 'other', value: rest });
    }
    return { name: v.path.slice(1), value: v.size, children };
  }));
  text('usage-caption', bytes(root.size) + ' in ' + root.subPathCount + ' volume'
      + (root.subPathCount === 1 ? '' : 's') + ' (du of /, then of each volume)');
  if (volumes.length === 0) {
    noChart('chart-usage', 'no data yet');
    return;
  }
  chart('chart-usage', {
    tooltip: { valueFormatter: bytes },
    series: [{
      type: 'treemap', name: '/', data: volumes, roam: false, nodeClick: false,
      breadcrumb: { show: false }, top: 0, left: 0, right: 0, bottom: 0,
      // Levels: the root (the series), volumes (labelled above their buckets), buckets.
      levels: [{ itemStyle: { gapWidth: 3 } },
        { itemStyle: { borderWidth: 2, gapWidth: 1 }, upperLabel: { show: true, height: 18 } },
        { colorSaturation: [0.35, 0.55] }],
    }],
  });
}

// Ozone's file-size bins: bin 0 up to 1 KiB, bin i up to 2^(10+i) bytes, the last one open.
function binLabel(i) {
  return i === 40 ? '> 512 TiB' : '≤ ' + bytes(2 ** (10 + i));
}

// dist reads every key, so it is asked again only once the root's key count or size (from the
// counters: a cheap summary) changed since the last answer or refusal.
let distSeenAt = null;

async function showDistribution() {
  const ns = await get('/namespace/summary?path=/');
  const seen = ns.countStats.numKey + ' keys, ' + ns.size + ' bytes';
  if (seen === distSeenAt) {
    return;
  }
  distSeenAt = seen;
  let d;
  try {
    d = await get('/namespace/dist?path=/');
  } catch (e) {
    // Too many keys to read in one request: the rest of the page still refreshes.
    text('dist-caption', '');
    noChart('chart-dist', e.message);
    return;
  }
  const files = d.dist.reduce((sum, n) => sum + n, 0);
  text('dist-caption', files + ' file' + (files === 1 ? '' : 's') + ' by size (dist of /)');
  if (files === 0) {
    noChart('chart-dist', 'no files yet');
    return;
  }
  const first = d.dist.findIndex((n) => n > 0);
  const last = d.dist.length - 1 - d.dist.slice().reverse().findIndex((n) => n > 0);
  const lo = Math.max(0, Math.min(first, last - 7));
  const hi = Math.min(d.dist.length - 1, Math.max(last, lo + 7));
  const bins = [];
  for (let i = lo; i <= hi; i++) {
    bins.push(i);
  }
  chart('chart-dist', {
    grid: { left: 50, right: 20, top: 20, bottom: 50 },
    tooltip: { trigger: 'axis' },
    // Every bin labelled, empty ones included: the gaps are part of the picture.
    xAxis: { type: 'category', data: bins.map(binLabel), axisLabel: { rotate: 40, interval: 0 } },
    yAxis: { type: 'value', minInterval: 1 },
    // Counts over the bars, so that a bin of one file beside one of thousands still reads.
    series: [{ name: 'files', type: 'bar', data: bins.map((i) => d.dist[i]),
      label: { show: true, position: 'top', formatter: (p) => (p.value ? String(p.value) : '') } }],
  });
}

// This replica's place in its group, or "single node".
async function showReplication() {
  const r = await get('/replication/status');
  if (!r.replicated) {
    text('replica-role', 'single node');
    return;
  }
  text('replica-role', r.role);
  text('replica-id', r.replicaId);
  text('replica-term', r.term);
  text('replica-applied', r.appliedIndex);
  text('replica-lag', r.applyLag);
  text('replica-leader', r.leaderId === null ? 'none (election)' : r.leaderId
      + (r.leaderAddress === null ? '' : ' (' + r.leaderAddress + ')'));
}

// The gRPC server's counters on /prom, summed over services, methods and codes; null when the
// server exports none (sediment recon --db reads a store, not a server).
async function rpcCounters() {
  const r = await fetch('/prom');
  if (!r.ok) {
    throw new Error('/prom: ' + r.status);
  }
  const sample = { at: Date.now(), calls: 0, seconds: 0, timed: 0 };
  let seen = false;
  const metric = /^sediment_grpc_server_(calls_total|call_duration_seconds_sum|call_duration_seconds_count)(?:\{[^}]*\})? (\S+)/;
  for (const line of (await r.text()).split('\n')) {
    const m = metric.exec(line);
    if (m) {
      seen = true;
      const field = { calls_total: 'calls', call_duration_seconds_sum: 'seconds' }[m[1]] || 'timed';
      sample[field] += Number(m[2]);
    }
  }
  return seen ? sample : null;
}

// Rates between successive refreshes: calls per second and the mean latency of the calls
// finished in between (histogram sum over count); the last 30 of each.
const rpc = { last: null, rate: [], latency: [] };
const RPC_POINTS = 30;

async function showRpcs() {
  const s = await rpcCounters();
  if (s === null) {
    text('rpc-note', 'no RPC metrics on this server');
    return;
  }
  const p = rpc.last;
  rpc.last = s;
  if (p === null || s.calls < p.calls || s.at <= p.at) {
    text('rpc-note', 'from /prom at each refresh: waiting for a second sample');
    return;
  }
  const calls = s.calls - p.calls;
  const timed = s.timed - p.timed;
  rpc.rate.push(calls * 1000 / (s.at - p.at));
  rpc.latency.push(timed > 0 ? (s.seconds - p.seconds) * 1000 / timed : NaN);
  for (const series of [rpc.rate, rpc.latency]) {
    series.splice(0, series.length - RPC_POINTS);
  }
  const rate = rpc.rate[rpc.rate.length - 1];
  const latency = rpc.latency[rpc.latency.length - 1];
  text('rpc-note', 'from /prom at each refresh, the last ' + rpc.rate.length + ' intervals');
  text('rpc-rate', rate.toFixed(rate < 10 ? 1 : 0) + ' calls/s');
  text('rpc-latency', Number.isFinite(latency) ? latency.toFixed(2) + ' ms' : 'no calls');
  sparkline('spark-rate', rpc.rate);
  sparkline('spark-latency', rpc.latency);
}

// A polyline across the SVG's 240 × 40 box, scaled to the largest value; NaN leaves a gap.
function sparkline(id, values) {
  const svg = document.getElementById(id);
  const max = Math.max(1e-9, ...values.filter(Number.isFinite));
  const step = 240 / Math.max(1, RPC_POINTS - 1);
  const x0 = 240 - (values.length - 1) * step;
  const runs = [[]];
  values.forEach((v, i) => {
    if (Number.isFinite(v)) {
      runs[runs.length - 1].push((x0 + i * step).toFixed(1) + ',' + (38 - v / max * 36).toFixed(1));
    } else if (runs[runs.length - 1].length) {
      runs.push([]);
    }
  });
  svg.replaceChildren();
  for (const run of runs.filter((r) => r.length)) {
    const line = document.createElementNS(SVG, 'polyline');
    // One point alone is a dot: a line to itself.
    line.setAttribute('points', (run.length === 1 ? [run[0], run[0]] : run).join(' '));
    svg.appendChild(line);
  }
}

// Auto-refresh: the next refresh is set when one ends, so two never overlap.
const refresh = { on: true, every: 5000, timer: null, busy: false, count: 0 };

async function refreshAll() {
  if (refresh.busy) {
    return;
  }
  refresh.busy = true;
  clearTimeout(refresh.timer);
  try {
    await Promise.all([showSummary(), showReplication(), showTables(), showTombstones(), showOpenKeys(),
      showPendingDeletes(), showUsage(), showDistribution(), showRpcs()]);
    text('status', 'as of ' + when(Date.now()));
    document.body.dataset.ready = 'true';
  } catch (e) {
    text('status', 'error: ' + e.message);
    document.body.dataset.ready = 'error';
  }
  refresh.busy = false;
  refresh.count += 1;
  document.body.dataset.refreshes = String(refresh.count);
  schedule();
}

function schedule() {
  clearTimeout(refresh.timer);
  refresh.timer = refresh.on && !refresh.busy ? setTimeout(refreshAll, refresh.every) : null;
  const toggle = document.getElementById('refresh-toggle');
  toggle.textContent = 'Auto-refresh: ' + (refresh.on ? 'on' : 'off');
  toggle.setAttribute('aria-pressed', String(refresh.on));
}

document.getElementById('refresh-toggle').addEventListener('click', () => {
  refresh.on = !refresh.on;
  schedule();
});
document.getElementById('refresh-interval').addEventListener('change', (e) => {
  refresh.every = Number(e.target.value);
  schedule();
});

refreshAll();
