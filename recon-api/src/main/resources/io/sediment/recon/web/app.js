// Sediment Recon page: reads the JSON API of the server that served it (same origin only).
'use strict';

const PAGE = 10;

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

// A table paged with prevKey: a stack of the cursors of the pages seen, to go back. A cursor is
// whatever load returned as next (null for the first page); it is never joined into a string,
// since keys may hold any character.
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

function chart(id, option) {
  if (!window.echarts) {
    text(id, 'chart library not loaded');
    return;
  }
  const c = echarts.init(document.getElementById(id), null, { renderer: 'svg' });
  c.setOption(Object.assign({ animation: false, grid: { left: 150, right: 30, top: 30, bottom: 30 } }, option));
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
    text('chart-hot-ranges', '');
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

async function main() {
  try {
    await Promise.all([showSummary(), showReplication(), showTables(), showTombstones(), showOpenKeys(),
      showPendingDeletes()]);
    text('status', 'as of ' + when(Date.now()));
    document.body.dataset.ready = 'true';
  } catch (e) {
    text('status', 'error: ' + e.message);
    document.body.dataset.ready = 'error';
  }
}

main();
