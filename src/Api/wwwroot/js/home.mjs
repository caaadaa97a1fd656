// The page at /: the formats from GET /api/formats, the links from GET /api/service, and the Compare panel, which
// measures each format in turn. /?count=N&run=1 starts a comparison on load. Each results row carries data-format and,
// once measured, data-bytes (the decoded body size) and data-ms (time to last byte), for tests and people's scripts.
import { formatBytes, formatMs, renderBars } from './bars.mjs';
import { curlFor, decode, decodedFormats, download } from './measure.mjs';

const byId = (id) => document.getElementById(id);
const compare = byId('compare');
const countInput = byId('count');
const runButton = byId('run');
const cancelButton = byId('cancel');
const progress = byId('progress');
const received = byId('received');
const statusLine = byId('status');
const resultsTable = byId('results');
const charts = byId('charts');

// The bounds the issue sets for a comparison; the server's own member count lowers the top one when it holds fewer.
const smallestCount = 1000;
const largestCount = 1_000_000;
let bounds = { lower: smallestCount, upper: largestCount };
let formats = [];

// The run in progress, if any: a new run or Cancel aborts it.
let current = null;

async function getJson(path) {
  const response = await fetch(path, { headers: { Accept: 'application/json' } });
  if (!response.ok) {
    throw new Error(`GET ${path} answered ${response.status}`);
  }

  return response.json();
}

function cell(tag, content, attributes = {}) {
  const node = document.createElement(tag);
  Object.assign(node, attributes);
  if (content instanceof Node) {
    node.append(content);
  } else if (content !== undefined) {
    node.textContent = content;
  }

  return node;
}

const code = (text) => cell('code', text);

function showStatus(text, isError = false) {
  statusLine.textContent = text;
  statusLine.classList.toggle('error', isError);
}

function fillFormats() {
  const rows = formats.map((format) => {
    const row = cell('tr');
    row.dataset.format = format.key;
    const aliases = cell('td');
    format.aliases.forEach((alias, index) => aliases.append(...(index > 0 ? [', '] : []), code(alias)));
    row.append(cell('th', format.name, { scope: 'row' }), cell('td', code(format.mediaType)), aliases, cell('td', code(format.key)));
    return row;
  });
  byId('formats').tBodies[0].replaceChildren(...rows);
}

function fillService(service) {
  const links = byId('links');
  const add = (href, text, first) => {
    const item = cell('li', cell('a', text, { href }));
    return first ? links.prepend(item) : links.append(item);
  };
  if (service.links.swagger) {
    add(service.links.swagger, 'Swagger UI: every endpoint, to try', true);
  }

  if (service.links.metrics) {
    add(service.links.metrics, 'Metrics (Prometheus)');
  }

  links.querySelector('a[href$=".proto"]').href = service.links.schema;
  bounds = { upper: Math.min(largestCount, service.memberCount), lower: Math.min(smallestCount, service.memberCount) };
  countInput.min = String(bounds.lower);
  countInput.max = String(bounds.upper);
  if (Number(countInput.value) > bounds.upper) {
    countInput.value = String(bounds.upper);
  }

  byId('member-count').textContent = service.memberCount.toLocaleString('en');
  byId('count-max').textContent = bounds.upper.toLocaleString('en');
}

/** The count to run: a whole number within bounds, or null when the text is not a number. */
function countFrom(text) {
  const value = Number(text);
  if (text === '' || !Number.isFinite(value)) {
    return null;
  }

  return Math.min(bounds.upper, Math.max(bounds.lower, Math.round(value)));
}

function resultRow(format) {
  const row = cell('tr');
  row.dataset.format = format.key;
  row.append(cell('th', format.name, { scope: 'row' }));
  for (let column = 0; column < 7; column++) {
    row.append(cell('td', column === 0 ? 'waiting' : ''));
  }

  return row;
}

function showMeasured(row, result) {
  row.dataset.bytes = String(result.bytes);
  row.dataset.transferred = String(result.transferred);
  row.dataset.encoding = result.encoding;
  row.dataset.firstByteMs = result.firstByteMs.toFixed(1);
  row.dataset.ms = result.lastByteMs.toFixed(1);
  row.dataset.timing = result.timing;
  const noReader = 'no reader ships with the API';
  const values = [
    formatBytes(result.bytes),
    result.transferred === result.bytes ? 'same' : formatBytes(result.transferred),
    result.encoding,
    formatMs(result.firstByteMs),
    formatMs(result.lastByteMs),
    result.decodeMs == null ? noReader : formatMs(result.decodeMs),
    result.members == null ? '' : result.members.toLocaleString('en'),
  ];
  if (result.decodeMs != null) {
    row.dataset.decodeMs = result.decodeMs.toFixed(1);
    row.dataset.members = String(result.members);
  }

  [...row.cells].slice(1).forEach((td, index) => {
    td.textContent = values[index];
    td.title = index === 1 && result.transferred !== result.bytes ? `${result.transferred} bytes on the wire, ${result.bytes} decoded` : '';
  });
}

function showFailed(row, message) {
  row.dataset.error = message;
  const [, first, ...rest] = row.cells;
  first.textContent = message;
  first.colSpan = 7;
  first.classList.add('error');
  rest.forEach((td) => td.remove());
}

async function copy(button, text, target) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = 'Copied';
  } catch {
    // No clipboard (an insecure origin, or permission refused): select the line, so that a copy shortcut takes it.
    getSelection().selectAllChildren(target);
    button.textContent = 'Selected';
  }

  setTimeout(() => { button.textContent = 'Copy'; }, 2000);
}

function fillCurlLines(count) {
  const items = formats.map((format) => {
    const line = curlFor(format, count);
    const target = code(line);
    const button = cell('button', 'Copy', { type: 'button', className: 'secondary' });
    button.setAttribute('aria-label', `Copy the curl command for ${format.name}`);
    button.addEventListener('click', () => copy(button, line, target));
    const item = cell('li');
    item.dataset.format = format.key;
    item.append(target, button);
    return item;
  });
  byId('curl-lines').replaceChildren(...items);
  byId('share').href = `?count=${count}&run=1`;
  byId('requests').hidden = false;
}

function showReceived(format, bytes) {
  received.textContent = `${format.name}: ${formatBytes(bytes)} received`;
}

async function run(count) {
  current?.abort();
  const controller = new AbortController();
  current = controller;
  const { signal } = controller;

  compare.dataset.state = 'running';
  cancelButton.disabled = false;
  progress.max = formats.length;
  progress.value = 0;
  received.textContent = '';
  history.replaceState(null, '', `?count=${count}`);
  byId('results-count').textContent = count.toLocaleString('en');
  const rows = formats.map(resultRow);
  resultsTable.tBodies[0].replaceChildren(...rows);
  resultsTable.hidden = false;
  byId('results-help').hidden = false;
  charts.hidden = true;
  fillCurlLines(count);

  const measured = formats.map((format) => ({ name: format.name }));
  let failures = 0;
  try {
    for (const [index, format] of formats.entries()) {
      showStatus(`Measuring ${format.name}, ${index + 1} of ${formats.length}…`);
      rows[index].cells[1].textContent = 'measuring';
      try {
        const result = await download(format, count, signal, (bytes) => showReceived(format, bytes));
        signal.throwIfAborted();
        result.decodeMs = null;
        result.members = null;
        if (decodedFormats.has(format.key)) {
          received.textContent = `${format.name}: decoding ${formatBytes(result.bytes)}`;
          const decoded = await decode(format.key, result.body, signal);
          signal.throwIfAborted();
          result.decodeMs = decoded.ms;
          result.members = decoded.members;
        }

        delete result.body;
        showMeasured(rows[index], result);
        Object.assign(measured[index], result);
        renderBars(byId('bars'), measured);
        charts.hidden = false;
      } catch (error) {
        if (signal.aborted) {
          throw error;
        }

        failures++;
        showFailed(rows[index], `${format.name} failed: ${error.message}`);
      }

      progress.value = index + 1;
    }

    received.textContent = '';
    compare.dataset.state = 'done';
    showStatus(failures === 0
      ? `Done: ${formats.length} formats, ${count.toLocaleString('en')} members each.`
      : `Done, with ${failures} of ${formats.length} formats failed.`, failures > 0);
  } catch (error) {
    // A run replaced by a newer one leaves the page to that run.
    if (current === controller) {
      compare.dataset.state = 'cancelled';
      received.textContent = '';
      showStatus(signal.aborted ? 'Cancelled.' : `Failed: ${error.message}`, !signal.aborted);
    }
  } finally {
    if (current === controller) {
      current = null;
      cancelButton.disabled = true;
    }
  }
}

async function start() {
  try {
    const [service, list] = await Promise.all([getJson('/api/service'), getJson('/api/formats')]);
    formats = list;
    fillFormats();
    fillService(service);
  } catch (error) {
    showStatus(`The page could not read the server's formats: ${error.message}`, true);
    runButton.disabled = true;
    return;
  }

  byId('compare-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const count = countFrom(countInput.value.trim());
    if (count === null) {
      showStatus(`Enter a member count from ${bounds.lower.toLocaleString('en')} to ${bounds.upper.toLocaleString('en')}.`, true);
      countInput.focus();
      return;
    }

    countInput.value = String(count);
    run(count);
  });
  cancelButton.addEventListener('click', () => {
    current?.abort();
    runButton.focus();
  });

  const query = new URLSearchParams(location.search);
  const shared = query.has('count') ? countFrom(query.get('count')) : null;
  if (shared !== null) {
    countInput.value = String(shared);
  }

  document.body.dataset.ready = 'true';
  if (query.get('run') === '1') {
    run(countFrom(countInput.value) ?? bounds.lower);
  }
}

start();
