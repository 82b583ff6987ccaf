// Lectern's page: search, filters from /facets, result cards whose cited snippets are
// highlighted inside the quoted field, similar books, one book's fields (a citation opens
// the quoted field with the snippet highlighted), and the assistant's chat. Plain ES
// modules, no build step.

import { api } from "./api.js";
import { mountChat } from "./chat.js";
import { $, el, highlighted } from "./dom.js";

const state = { lastResults: [], lastQuery: "", book: null };

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

// "Nothing fits" and "which one?": the catalog cannot serve the request (the results are
// only the nearest it has), or a short or "like X" request may mean two or three books.
function showNotice(response) {
  const box = $("notice");
  const readings = response.readings || [];
  const notice = response.nothing_fits;
  $("notice-text").textContent = notice
    ? notice.message
    : readings.length ? "Which one do you mean?" : "";
  const buttons = readings.map((r) => {
    const button = el("button", { type: "button", class: "secondary" },
      r.author ? `${r.title} (${r.author})` : r.title);
    button.addEventListener("click", () => showBook(r.book_id));
    return button;
  });
  if (buttons.length) {
    const lead = notice ? "Did you mean: " : "";
    $("readings").replaceChildren(lead, ...buttons);
  }
  $("readings").hidden = !buttons.length;
  box.hidden = !notice && !buttons.length;
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
  $("book-view").hidden = true;
  $("results").hidden = false;
  state.lastQuery = text;
  state.book = null;
  chat.describeContext();
  try {
    const response = await api("/search", { method: "POST", body: JSON.stringify(body) });
    showBanner(response);
    showNotice(response);
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

const BOOK_FIELDS = [
  ["title", "Title"], ["authors", "Authors"], ["published_year", "Year"],
  ["language", "Language"], ["categories", "Categories"], ["description", "Description"],
];

// One book's fields; `field` and `quote` (from a citation link) highlight what was quoted.
async function showBook(id, field, quote) {
  $("status").textContent = "Opening the book…";
  try {
    const book = await api(`/books/${encodeURIComponent(id)}`);
    state.book = book;
    const values = {
      title: book.title, authors: book.authors.join(", "),
      published_year: book.year === null ? "" : String(book.year), language: book.language || "",
      categories: book.categories.join(", "), description: book.description || "",
    };
    const rows = [];
    let cited = null;
    for (const [name, label] of BOOK_FIELDS) {
      if (!values[name]) continue;
      const isCited = name === field && quote;
      const value = el("dd", { id: `field-${name}`, "data-field": name, tabindex: "-1", class: isCited ? "cited" : null },
        highlighted(values[name], isCited ? [quote] : []));
      if (isCited) cited = value;
      rows.push(el("dt", {}, label), value);
    }
    $("book-view-title").textContent = book.title;
    $("book-view-body").replaceChildren(el("dl", { class: "book-fields" }, ...rows));
    $("results").hidden = true;
    $("similar").hidden = true;
    $("plan").hidden = true;
    $("book-view").hidden = false;
    $("status").textContent = cited && !cited.querySelector("mark")
      ? "The quoted words are not in this field as it reads now." : "";
    (cited || $("book-view-title")).focus();
    (cited || $("book-view")).scrollIntoView({ block: "center" });
    chat.describeContext();
  } catch (error) {
    $("status").textContent = error.message;
  }
}

function pageContext() {
  if (state.book) return { type: "book", id: state.book.id, name: state.book.title.slice(0, 300) };
  if (state.lastQuery) return { type: "search", name: state.lastQuery.slice(0, 300) };
  return null;
}

const chat = mountChat(pageContext);
$("book-view-close").addEventListener("click", () => {
  state.book = null;
  $("book-view").hidden = true;
  $("results").hidden = false;
  history.replaceState(null, "", state.lastQuery ? `?q=${encodeURIComponent(state.lastQuery)}` : "/");
  chat.describeContext();
  $("q").focus();
});
$("search-form").addEventListener("submit", search);
$("similar-close").addEventListener("click", () => {
  $("similar").hidden = true;
  $("results").hidden = false;
  $("q").focus();
});
loadFacets();
const params = new URLSearchParams(location.search);
if (params.get("book")) showBook(params.get("book"), params.get("field"), params.get("quote"));
else if (params.get("q")) { $("q").value = params.get("q"); search(); }
