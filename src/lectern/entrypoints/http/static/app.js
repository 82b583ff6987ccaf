// Lectern's page: search, filters from /facets, result cards whose cited snippets are
// highlighted inside the quoted field, similar books. Plain ES module, no build step.

const $ = (id) => document.getElementById(id);
const state = { lastResults: [], lastQuery: "" };

function apiKey() {
  return $("api-key").value || sessionStorage.getItem("lectern-api-key") || "";
}

async function api(path, options = {}) {
  const headers = { "Content-Type": "application/json" };
  const key = apiKey();
  if (key) headers["X-API-Key"] = key;
  const response = await fetch(path, { ...options, headers });
  if (response.status === 401) {
    $("key-box").hidden = false;
    throw new Error("This server needs an API key: enter it above and search again.");
  }
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new Error(body.detail || body.title || `HTTP ${response.status}`);
  }
  if (key) sessionStorage.setItem("lectern-api-key", key);
  return body;
}

// The same folding the server validates with: case-folded, whitespace runs as one space.
// Returns the folded text and, for each folded character, its index in the original.
function fold(text) {
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
function ranges(text, snippets) {
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

// The field text as DOM nodes, cited spans wrapped in <mark>; never innerHTML.
function highlighted(text, snippets) {
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

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else node.setAttribute(k, v);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

function card(result, withSimilar) {
  const book = result.book;
  const cited = { title: [], authors: [], categories: [], description: [] };
  const explanation = result.explanation;
  if (explanation) for (const c of explanation.citations) cited[c.field].push(c.snippet);

  const placeholder = () => el("div", { class: "nocover", "aria-hidden": "true" });
  let cover = placeholder();
  if (book.cover_url) {
    cover = el("img", { src: book.cover_url, alt: `Cover of ${book.title}`, loading: "lazy" });
    cover.addEventListener("error", () => cover.replaceWith(placeholder()), { once: true });
  }
  const title = el("h3", {}, highlighted(book.title, cited.title));
  const meta = el("p", { class: "meta" },
    highlighted(book.authors.join(", "), cited.authors),
    book.year !== null ? ` · ${book.year}` : "",
    book.language ? ` · ${book.language}` : "",
    book.pages !== null ? ` · ${book.pages} pages` : "");
  const cats = book.categories.length
    ? el("p", { class: "cats" }, highlighted(book.categories.join(", "), cited.categories))
    : null;
  const desc = book.description
    ? el("p", { class: "desc" }, highlighted(book.description, cited.description))
    : null;
  let why = null;
  if (explanation) {
    const quotes = el("ul", { class: "quotes" },
      ...explanation.citations.map((c) => el("li", {}, `${c.field}: `, el("mark", {}, c.snippet))));
    why = el("div", { class: explanation.grounded ? "explanation" : "explanation ungrounded" },
      el("p", {}, explanation.text),
      explanation.citations.length ? quotes : null,
      el("p", { class: "scores" }, `${explanation.model}, confidence ${explanation.confidence.toFixed(2)}`));
  }
  const scores = el("p", { class: "scores" },
    `#${result.rank} · score ${result.score.toFixed(4)}` +
    (result.lexical_rank ? ` · words #${result.lexical_rank}` : "") +
    (result.vector_rank ? ` · meaning #${result.vector_rank}` : ""));
  let action = null;
  if (withSimilar) {
    action = el("button", { type: "button", class: "secondary similar-button" }, "Similar books");
    action.addEventListener("click", () => showSimilar(book));
  }
  return el("article", { class: "card", "data-book-id": book.id },
    cover, el("div", {}, title, meta, cats, why, desc, scores, action));
}

function showBanner(response) {
  const banner = $("banner");
  if (response.degraded) {
    banner.textContent = `Degraded: results come from word matching alone (${response.degraded_reason || "the vector index is unavailable"}).`;
    banner.hidden = false;
  } else {
    banner.hidden = true;
  }
}

// Parts of the understood plan the reader removed; cleared when the query text changes.
let ignored = new Set();
let lastText = "";

function pageLimit(f) {
  if (f.min_pages !== null && f.max_pages !== null) return `${f.min_pages}–${f.max_pages} pages`;
  if (f.max_pages !== null) return `at most ${f.max_pages} pages`;
  return `at least ${f.min_pages} pages`;
}

// One chip per removable part of the plan: [ignore key, label].
function planChips(plan) {
  const f = plan.filters;
  const chips = [];
  if (f.language) chips.push(["language", `language: ${f.language}`]);
  if (f.min_year !== null || f.max_year !== null) chips.push(["years", `years: ${f.min_year ?? ""}–${f.max_year ?? ""}`]);
  if (f.min_pages !== null || f.max_pages !== null) chips.push(["pages", pageLimit(f)]);
  if (plan.categories.length) chips.push(["categories", `genres: ${plan.categories.join(", ")}`]);
  if (plan.authors.length) chips.push(["authors", `authors: ${plan.authors.join(", ")}`]);
  if (plan.like_title) chips.push(["like", `like: ${plan.like_title}`]);
  const seen = new Set();
  for (const e of plan.exclusions) {
    if (e.scope === "audience") {
      if (!seen.has("audience")) chips.push(["audience", "not: young readers"]);
      seen.add("audience");
    } else if (!seen.has(e.label)) {
      chips.push([`not:${e.label}`, `not: ${e.label}`]);
      seen.add(e.label);
    }
  }
  return chips;
}

function showPlan(plan) {
  const box = $("plan");
  if (!plan) { box.hidden = true; return; }
  const chips = planChips(plan).map(([key, label]) => {
    const remove = el("button", {
      type: "button", class: "chip-remove", "aria-label": `Remove ${label}`,
    }, "×");
    remove.addEventListener("click", () => { ignored.add(key); search(); });
    const kind = key.startsWith("not:") ? "exclusion" : key;
    return el("li", { class: key.startsWith("not:") || key === "audience" ? "chip not" : "chip", "data-kind": kind }, label, remove);
  });
  if (!chips.length) chips.push(el("li", { class: "chip empty" }, "no filters"));
  $("chips").replaceChildren(...chips);
  const strategy = `${plan.strategy.replace("_", " ")}: ${plan.strategy_reason}`;
  $("plan-notes").textContent = [strategy, ...plan.notes].join(" · ");
  box.hidden = false;
}

function render(target, response, withSimilar) {
  target.replaceChildren(...response.results.map((r) => card(r, withSimilar)));
}

async function search(event) {
  event?.preventDefault();
  const text = $("q").value.trim();
  if (!text) { $("status").textContent = "Type a few words to search for."; return; }
  const filters = {};
  if ($("language").value) filters.language = $("language").value;
  if ($("category").value) filters.category = $("category").value;
  if ($("min-year").value) filters.min_year = Number($("min-year").value);
  if ($("max-year").value) filters.max_year = Number($("max-year").value);
  if ($("min-pages").value) filters.min_pages = Number($("min-pages").value);
  if ($("max-pages").value) filters.max_pages = Number($("max-pages").value);
  const shelves = $("exclude-categories").value.split(",").map((x) => x.trim()).filter(Boolean);
  if (shelves.length) filters.exclude_categories = shelves;
  if ($("exclude-youth").checked) filters.exclude_youth = true;
  if (text !== lastText) { ignored = new Set(); lastText = text; }
  const body = {
    text, filters, max_results: 10,
    strategy: $("strategy").value,
    use_explanations: $("explain").checked,
    understand: $("understand").checked,
    ignore: [...ignored],
  };
  $("status").textContent = "Searching…";
  $("go").disabled = true;
  $("similar").hidden = true;
  $("results").hidden = false;
  try {
    const response = await api("/search", { method: "POST", body: JSON.stringify(body) });
    showBanner(response);
    showPlan(response.plan);
    render($("results"), response, true);
    const n = response.results.length;
    $("status").textContent = n
      ? `${n} books in ${Math.round(response.timings.retrieval_ms + (response.timings.explanation_ms || 0))} ms`
      : "No books match. Try fewer words or wider filters.";
    history.replaceState(null, "", `?q=${encodeURIComponent(text)}`);
  } catch (error) {
    $("results").replaceChildren();
    $("status").textContent = error.message;
  } finally {
    $("go").disabled = false;
  }
}

async function showSimilar(book) {
  $("status").textContent = `Finding books like ${book.title}…`;
  try {
    const response = await api(`/books/${encodeURIComponent(book.id)}/similar?k=8`);
    showBanner(response);
    $("similar-title").textContent = `Books like ${book.title}`;
    render($("similar-list"), response, false);
    $("results").hidden = true;
    $("similar").hidden = false;
    $("status").textContent = response.results.length ? "" : "No similar books found.";
    $("similar-close").focus();
  } catch (error) {
    $("status").textContent = error.message;
  }
}

async function loadFacets() {
  try {
    const facets = await api("/facets");
    for (const l of facets.languages) $("language").append(el("option", { value: l.value }, `${l.value} (${l.count})`));
    for (const c of facets.categories) $("category").append(el("option", { value: c.value }, `${c.value} (${c.count})`));
  } catch (error) {
    $("status").textContent = `Filters unavailable: ${error.message}`;
  }
}

$("search-form").addEventListener("submit", search);
$("similar-close").addEventListener("click", () => {
  $("similar").hidden = true;
  $("results").hidden = false;
  $("q").focus();
});
loadFacets();
const initial = new URLSearchParams(location.search).get("q");
if (initial) { $("q").value = initial; search(); }
