// Draws the results as bars in inline SVG: body size per format, then time to first byte, to last byte and through
// the decode, each on its own scale. The table beside it carries the same figures for screen readers and scripts,
// so the drawing is one labelled image.
const svgNamespace = 'http://www.w3.org/2000/svg';
const width = 660;
const labelWidth = 110;
const barSpace = 330;
const rowHeight = 24;
const barHeight = 16;

function element(name, attributes, text) {
  const node = document.createElementNS(svgNamespace, name);
  for (const [key, value] of Object.entries(attributes)) {
    node.setAttribute(key, String(value));
  }

  if (text !== undefined) {
    node.textContent = text;
  }

  return node;
}

/** "21.6 MB", "812 kB" or "950 B", in decimal units as the tables of docs/results are. */
export function formatBytes(bytes) {
  if (bytes >= 1e6) {
    return `${(bytes / 1e6).toFixed(1)} MB`;
  }

  return bytes >= 1e3 ? `${(bytes / 1e3).toFixed(1)} kB` : `${bytes} B`;
}

/** "1,234 ms" or "12.3 ms". */
export function formatMs(ms) {
  return ms >= 100 ? `${Math.round(ms).toLocaleString('en')} ms` : `${ms.toFixed(1)} ms`;
}

function panel(svg, top, heading, rows, drawRow) {
  svg.append(element('text', { x: 0, y: top + 14, class: 'heading' }, heading));
  rows.forEach((row, index) => {
    const y = top + 24 + index * rowHeight;
    svg.append(element('text', { x: 0, y: y + barHeight - 3 }, row.name));
    drawRow(row, y);
  });
  return top + 24 + rows.length * rowHeight + 12;
}

function bar(svg, x, y, length, className, height = barHeight) {
  svg.append(element('rect', { x: labelWidth + x, y: y + (barHeight - height) / 2, width: Math.max(length, 1), height, class: className }));
}

function legend(svg, top, entries) {
  let x = 0;
  for (const [className, label] of entries) {
    svg.append(element('rect', { x, y: top, width: 12, height: 12, class: `${className} swatch` }));
    svg.append(element('text', { x: x + 16, y: top + 11 }, label));
    x += 24 + label.length * 7;
  }

  return top + 20;
}

/**
 * Replaces the container's drawing with one for rows of { name, bytes, transferred, firstByteMs, lastByteMs,
 * decodeMs (or null) }; rows not yet measured are left out.
 */
export function renderBars(container, rows) {
  const measured = rows.filter((row) => row.lastByteMs !== undefined);
  container.replaceChildren();
  if (measured.length === 0) {
    return;
  }

  const svg = element('svg', { viewBox: `0 0 ${width} 0`, role: 'img', 'aria-labelledby': 'bars-title' });
  svg.append(element('title', { id: 'bars-title' }, 'Bars of each format\'s body size and times; the results table has the same figures.'));

  const maxBytes = Math.max(...measured.map((row) => row.bytes));
  let top = panel(svg, 0, 'Body size', measured, (row, y) => {
    bar(svg, 0, y, (row.bytes / maxBytes) * barSpace, 'bar-size');
    const compressed = row.transferred < row.bytes;
    if (compressed) {
      bar(svg, 0, y, (row.transferred / maxBytes) * barSpace, 'bar-size-wire', barHeight / 2);
    }

    const label = compressed ? `${formatBytes(row.bytes)} (${formatBytes(row.transferred)} transferred)` : formatBytes(row.bytes);
    svg.append(element('text', { x: labelWidth + (row.bytes / maxBytes) * barSpace + 6, y: y + barHeight - 3 }, label));
  });

  const totalMs = (row) => row.lastByteMs + (row.decodeMs ?? 0);
  const maxMs = Math.max(...measured.map(totalMs));
  const scale = (ms) => (ms / maxMs) * barSpace;
  top = panel(svg, top, 'Time from the request', measured, (row, y) => {
    bar(svg, 0, y, scale(row.firstByteMs), 'bar-first-byte');
    bar(svg, scale(row.firstByteMs), y, scale(row.lastByteMs - row.firstByteMs), 'bar-last-byte');
    if (row.decodeMs !== null && row.decodeMs !== undefined) {
      bar(svg, scale(row.lastByteMs), y, scale(row.decodeMs), 'bar-decode');
    }

    const label = row.decodeMs == null ? formatMs(row.lastByteMs) : `${formatMs(row.lastByteMs)} + ${formatMs(row.decodeMs)} decode`;
    svg.append(element('text', { x: labelWidth + scale(totalMs(row)) + 6, y: y + barHeight - 3 }, label));
  });

  top = legend(svg, top, [
    ['bar-size', 'body'],
    ['bar-size-wire', 'transferred'],
    ['bar-first-byte', 'to first byte'],
    ['bar-last-byte', 'to last byte'],
    ['bar-decode', 'decode'],
  ]);
  svg.setAttribute('viewBox', `0 0 ${width} ${top}`);
  container.append(svg);
}
