// The guideline chat: questions to one guidance collection, streamed answers with inline
// citation links that open the cited page or section with the quoted words highlighted, and
// a yellow banner when the answer carries grounding flags. Built from DOM nodes only.

import { api, stream } from "./api.js";
import { $, el, highlighted } from "./dom.js";

const STORE = "lectern-guide";
const LABEL = /\[[^\[\]\n]{1,80}? (?:p\.\s?\d+|§\s?[A-Za-z0-9][\w.\-]*?)\]/g;
const FLAG_TEXT = {
  no_retrieval: "the answer was not checked against the documents (no search was made)",
  no_evidence: "the documents hold nothing on this",
  missing_citations: "the answer cited nothing, so it was withheld",
  invalid_citations_dropped: "citations to passages that were not retrieved were removed",
  unsupported_number: "a statement with a number the documents do not state was removed",
  low_relevance_dropped: "passages that barely matched were left out",
  step_limit: "the agent stopped before finishing",
  pii_masked: "personal data in your question was masked",
  model_error: "the model could not answer",
};

let profiles = [];
let busy = false;

function saved() {
  try { return JSON.parse(sessionStorage.getItem(STORE) || "{}"); } catch { return {}; }
}
function save(patch) {
  sessionStorage.setItem(STORE, JSON.stringify({ ...saved(), ...patch }));
}
function profileName() {
  return $("guide-profile").value;
}
function sessionOf(profile) {
  return (saved().sessions || {})[profile] || null;
}
function setSession(profile, id) {
  save({ sessions: { ...(saved().sessions || {}), [profile]: id } });
}

// The answer's text as nodes: each label it cites becomes a link to the passage behind it.
export function answerNodes(text, citations, onOpen) {
  const byLabel = new Map(citations.map((c) => [c.label, c]));
  const fragment = document.createDocumentFragment();
  for (const line of text.split("\n")) {
    const paragraph = el("p");
    let cursor = 0;
    for (const match of line.matchAll(LABEL)) {
      if (match.index > cursor) paragraph.append(line.slice(cursor, match.index));
      const citation = byLabel.get(match[0]);
      if (citation) {
        const link = el("a", {
          class: "guide-citation", href: citation.url,
          title: `Open ${citation.document}${citation.section ? ` (${citation.section})` : ""} at the quoted words`,
          "data-label": citation.label,
        }, match[0]);
        link.addEventListener("click", (event) => { event.preventDefault(); onOpen(citation); });
        paragraph.append(link);
      } else {
        paragraph.append(match[0]);
      }
      cursor = match.index + match[0].length;
    }
    if (cursor < line.length) paragraph.append(line.slice(cursor));
    fragment.append(paragraph);
  }
  return fragment;
}

async function openSource(label, quote, cited) {
  const view = $("source-view");
  const query = new URLSearchParams({ label });
  if (quote) query.set("snippet", quote);
  try {
    const resolved = await api(`/labels/resolve?${query}`);
    $("source-title").textContent = `${cited || label} ${resolved.document.title}`;
    const where = resolved.snippet_at ? "the quoted words are highlighted" : "the quoted words were not found here";
    $("source-meta").textContent = `${resolved.document.uri} · ${where}`;
    const text = $("source-text");
    if (resolved.snippet_at) {
      const [start, end] = resolved.snippet_at;
      const offset = resolved.start;
      const mark = el("mark", {}, resolved.text.slice(start - offset, end - offset));
      text.replaceChildren(resolved.text.slice(0, start - offset), mark, resolved.text.slice(end - offset));
      view.hidden = false;
      mark.scrollIntoView({ block: "center" });
    } else {
      text.replaceChildren(highlighted(resolved.text, quote ? [quote] : []));
      view.hidden = false;
    }
    $("source-title").focus();
  } catch (error) {
    $("source-meta").textContent = `Could not open ${label}: ${error.message}`;
    $("source-text").replaceChildren();
    view.hidden = false;
  }
}

function message(role, ...children) {
  const node = el("article", { class: `chat-msg ${role}` }, ...children);
  $("guide-log").append(node);
  node.scrollIntoView({ block: "end" });
  return node;
}

function banner(flags) {
  const node = el("p", { class: "chat-flags guide-flags", role: "note", "data-flags": flags.join(" ") });
  node.append(el("strong", {}, "Checked: "), flags.map((f) => FLAG_TEXT[f] || f).join("; "), ".");
  return node;
}

async function ask(question) {
  if (busy || !question.trim()) return;
  busy = true;
  $("guide-send").disabled = true;
  const profile = profileName();
  message("user", el("p", {}, question));
  const body = el("div", { class: "guide-answer" }, el("p", { class: "chat-working" }, "Searching the documents…"));
  const node = message("assistant", body);
  let text = "";
  const live = el("p");
  try {
    await stream("/chat/stream", { message: question, session_id: sessionOf(profile), profile }, ({ data }) => {
      if (typeof data.token === "string") {
        if (!text) body.replaceChildren(live);
        text += data.token;
        live.textContent = text;
      }
      if (data.done) {
        if (data.error) {
          body.replaceChildren(el("p", { class: "chat-error" }, data.error));
        } else {
          body.replaceChildren(answerNodes(text, data.citations || [], (c) => openSource(c.source_label, c.snippet, c.label)));
        }
        if (data.session_id) setSession(profile, data.session_id);
        const flags = data.grounding_flags || [];
        if (flags.length) node.prepend(banner(flags));
        node.dataset.done = "true";
      }
    });
  } catch (error) {
    body.replaceChildren(el("p", { class: "chat-error" }, error.message));
    node.dataset.done = "true";
  } finally {
    busy = false;
    $("guide-send").disabled = false;
  }
}

function showProfile() {
  const profile = profiles.find((p) => p.name === profileName());
  if (!profile) return;
  $("guide-scope").textContent = profile.available
    ? `${profile.title}. Cited by ${profile.citation}.`
    : `${profile.title}: not added yet (lectern collections add ${profile.collection} PATH).`;
  const list = $("guide-examples");
  list.replaceChildren(...profile.examples.map((q) => {
    const button = el("button", { type: "button", class: "secondary guide-example" }, q);
    button.addEventListener("click", () => ask(q));
    return el("li", {}, button);
  }));
  save({ profile: profile.name });
}

async function start() {
  try {
    profiles = await api("/chat/profiles");
  } catch (error) {
    $("guide-scope").textContent = error.message;
    return;
  }
  const select = $("guide-profile");
  const params = new URLSearchParams(location.search);
  const wanted = params.get("profile") || saved().profile || (profiles.find((p) => p.default) || {}).name;
  select.replaceChildren(...profiles.map((p) => el("option", { value: p.name, selected: p.name === wanted }, `${p.name}: ${p.title}`)));
  select.addEventListener("change", () => { $("guide-log").replaceChildren(); showProfile(); });
  showProfile();
  $("guide-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const question = $("guide-input").value;
    $("guide-input").value = "";
    ask(question);
  });
  $("guide-input").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey) { event.preventDefault(); $("guide-form").requestSubmit(); }
  });
  $("guide-new").addEventListener("click", () => {
    setSession(profileName(), null);
    $("guide-log").replaceChildren();
  });
  $("source-close").addEventListener("click", () => { $("source-view").hidden = true; });
  if (params.get("label")) openSource(params.get("label"), params.get("quote"), params.get("cited"));
}

start();
