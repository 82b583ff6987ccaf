// A safe Markdown subset for the assistant's replies, built as DOM nodes: no HTML from the
// model or the data ever reaches the DOM as markup.
//
// Blocks: paragraphs (blank-line separated, single newlines kept as line breaks), ordered
// ("1. ") and bulleted ("- ", "* ") lists. Inline: **bold**, *em*, `code`, [text](url) for
// http(s) and same-site URLs only, citations `"snippet" [book:<id>#field]` and action
// references `[action <id>]` (handed to the caller's renderers).

const INLINE = new RegExp(
  [
    String.raw`"(?<quote>[^"\n]{1,200})"\s*\[(?<source>(?:book|passage):[^\]\s]+)\]`,
    String.raw`\[action (?<action>[0-9a-fA-F-]{8,64})\]`,
    String.raw`\x60(?<code>[^\x60\n]+)\x60`,
    String.raw`\*\*(?<bold>[^*\n]+)\*\*`,
    String.raw`(?<![\w*])\*(?<em>[^*\s][^*\n]*)\*(?![\w*])`,
    String.raw`\[(?<label>[^\]\n]+)\]\((?<href>[^)\s]+)\)`,
  ].join("|"),
  "g",
);

export function safeHref(href) {
  if (/^https?:\/\//i.test(href)) return href;
  if (href.startsWith("/") && !href.startsWith("//")) return href;
  return null;
}

function inline(text, renderers) {
  const out = [];
  let cursor = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > cursor) out.push(document.createTextNode(text.slice(cursor, match.index)));
    const g = match.groups;
    let node;
    if (g.quote !== undefined) {
      node = renderers.citation ? renderers.citation(g.quote, g.source) : `"${g.quote}"`;
    } else if (g.action !== undefined) {
      node = renderers.action ? renderers.action(g.action) : match[0];
    } else if (g.code !== undefined) {
      node = document.createElement("code");
      node.textContent = g.code;
    } else if (g.bold !== undefined) {
      node = document.createElement("strong");
      node.append(...inline(g.bold, renderers));
    } else if (g.em !== undefined) {
      node = document.createElement("em");
      node.append(...inline(g.em, renderers));
    } else {
      const href = safeHref(g.href);
      if (href) {
        node = document.createElement("a");
        node.href = href;
        node.textContent = g.label;
        if (/^https?:/i.test(href)) node.rel = "noopener noreferrer";
      } else {
        node = match[0];
      }
    }
    out.push(typeof node === "string" ? document.createTextNode(node) : node);
    cursor = match.index + match[0].length;
  }
  if (cursor < text.length) out.push(document.createTextNode(text.slice(cursor)));
  return out;
}

const ITEM = /^\s*(?:(\d{1,3})[.)]|[-*])\s+(.*)$/;

// Markdown text -> a DocumentFragment. `renderers.citation(quote, source)` and
// `renderers.action(id)` return nodes (or strings) for those references.
export function renderMarkdown(text, renderers = {}) {
  const fragment = document.createDocumentFragment();
  const blocks = text.replace(/\r\n?/g, "\n").split(/\n{2,}/);
  for (const block of blocks) {
    const lines = block.split("\n").filter((l) => l.trim() !== "");
    let paragraph = null;
    let list = null;
    for (const line of lines) {
      const item = ITEM.exec(line);
      if (item) {
        const ordered = item[1] !== undefined;
        const tag = ordered ? "OL" : "UL";
        if (!list || list.tagName !== tag) {
          list = document.createElement(tag.toLowerCase());
          if (ordered && item[1] !== "1") list.start = Number(item[1]);
          fragment.append(list);
        }
        const li = document.createElement("li");
        li.append(...inline(item[2], renderers));
        list.append(li);
        paragraph = null;
        continue;
      }
      list = null;
      if (!paragraph) {
        paragraph = document.createElement("p");
        fragment.append(paragraph);
      } else {
        paragraph.append(document.createElement("br"));
      }
      paragraph.append(...inline(line, renderers));
    }
  }
  return fragment;
}
