// The reading lists page: the reader's lists, one list's books (each opens the book), and
// the assistant's chat with this list as its page. Refreshes when an action is approved.

import { api } from "./api.js";
import { mountChat } from "./chat.js";
import { $, el } from "./dom.js";

const state = { lists: [], current: null };

function listLink(summary) {
  const link = el("a", { href: `/reading-lists?list=${encodeURIComponent(summary.id)}`, "data-list-id": summary.id },
    summary.name, el("span", { class: "count" }, ` ${summary.books} ${summary.books === 1 ? "book" : "books"}`));
  if (state.current && state.current.id === summary.id) link.setAttribute("aria-current", "true");
  link.addEventListener("click", (event) => {
    event.preventDefault();
    history.pushState(null, "", link.getAttribute("href"));
    showList(summary.id, true);
  });
  return el("li", {}, link);
}

async function loadLists() {
  state.lists = await api("/lists");
  $("lists").replaceChildren(...state.lists.map(listLink));
  if (!state.lists.length) {
    $("status").textContent = "No reading lists yet. Ask the assistant: \"create a list called Summer\".";
  }
}

async function showList(id, focus = false) {
  try {
    const shown = await api(`/lists/${encodeURIComponent(id)}`);
    state.current = shown;
    $("list-title").textContent = shown.name;
    $("list-meta").textContent = `${shown.entries.length} ${shown.entries.length === 1 ? "book" : "books"}`;
    $("entries").replaceChildren(...shown.entries.map((entry) => el("li", { class: "entry", "data-book-id": entry.book_id },
      el("a", { href: `/?book=${encodeURIComponent(entry.book_id)}` }, entry.title || "(no longer in the catalog)"),
      entry.authors.length ? el("span", { class: "meta" }, ` by ${entry.authors.join(", ")}`) : null,
      entry.year !== null ? el("span", { class: "meta" }, ` (${entry.year})`) : null,
      entry.note ? el("p", { class: "note" }, entry.note) : null)));
    if (!shown.entries.length) $("entries").append(el("li", { class: "empty" }, "No books on this list yet."));
    $("list-view").hidden = false;
    $("status").textContent = "";
    $("lists").replaceChildren(...state.lists.map(listLink));
    chat.describeContext();
    if (focus) $("list-title").focus();
  } catch (error) {
    state.current = null;
    $("list-view").hidden = true;
    $("status").textContent = error.message;
  }
}

async function refresh() {
  try {
    await loadLists();
    const wanted = new URLSearchParams(location.search).get("list");
    const id = wanted || (state.current && state.current.id) || (state.lists[0] && state.lists[0].id);
    if (id) await showList(id);
  } catch (error) {
    $("status").textContent = error.message;
  }
}

const chat = mountChat(() => (state.current
  ? { type: "list", id: state.current.id, name: state.current.name.slice(0, 300) }
  : null));
window.addEventListener("lectern:changed", refresh);
window.addEventListener("popstate", refresh);
$("key-save").addEventListener("click", refresh);
refresh();
