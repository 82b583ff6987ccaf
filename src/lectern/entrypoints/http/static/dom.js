// DOM helpers shared by the pages: build nodes (never innerHTML), and highlight quoted
// snippets inside a field with the same folding the server validates citations with.

export const $ = (id) => document.getElementById(id);

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

// Case-folded, whitespace runs as one space. Returns the folded text and, for each folded
// character, its index in the original.
export function fold(text) {
  let out = "";
  const map = [];
  let space = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (/\s/.test(ch)) {
      if (!space && out.length) { out += " "; map.push(i); }
      space = true;
      continue;
    }
    space = false;
    const lower = ch.toLowerCase();
    for (const c of lower) { out += c; map.push(i); }
  }
  return { out, map };
}

// Ranges [start, end) of the original text covered by the snippets.
export function ranges(text, snippets) {
  const folded = fold(text);
  const found = [];
  for (const snippet of snippets) {
    const needle = fold(snippet).out.trim();
    if (!needle) continue;
    let at = folded.out.indexOf(needle);
    while (at !== -1) {
      found.push([folded.map[at], folded.map[at + needle.length - 1] + 1]);
      at = folded.out.indexOf(needle, at + needle.length);
    }
  }
  found.sort((a, b) => a[0] - b[0]);
  const merged = [];
  for (const r of found) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([...r]);
  }
  return merged;
}

// The field text as DOM nodes, cited spans wrapped in <mark>.
export function highlighted(text, snippets) {
  const fragment = document.createDocumentFragment();
  let cursor = 0;
  for (const [start, end] of ranges(text, snippets)) {
    if (start > cursor) fragment.append(text.slice(cursor, start));
    const mark = document.createElement("mark");
    mark.textContent = text.slice(start, end);
    fragment.append(mark);
    cursor = end;
  }
  if (cursor < text.length) fragment.append(text.slice(cursor));
  return fragment;
}
