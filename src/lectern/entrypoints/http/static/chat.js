// The assistant as a floating chat on every page: it sends the page the reader is on,
// streams the reply (tool calls as they run, then the checked text), shows each proposed
// change as a card with its field-level diff, Approve / Reject and its expiry, turns
// citations into links that open the quoted field with the snippet highlighted, and raises
// a yellow banner when the reply carries grounding flags. Built from DOM nodes only.
// Shared by the book pages and the workspace: each page passes a function returning its
// page context, and may name what the assistant is about there (`options`).

import { api, ProblemError, serverNow, stream } from "./api.js";
import { el } from "./dom.js";
import { renderMarkdown } from "./markdown.js";

const STORE = "lectern-chat";
const FLAG_TEXT = {
  no_retrieval: "not checked against the catalog (no search was made)",
  missing_citations: "it quotes no catalog text",
  invalid_citations_dropped: "quotes that could not be verified were removed",
  no_evidence: "the catalog held no evidence for it",
  low_relevance_dropped: "weak matches were left out",
  step_limit: "the assistant stopped before finishing",
  pii_masked: "personal data in your message was masked",
  off_topic: "the request is outside what the assistant does",
  model_error: "the model could not answer",
};
const STATUS_TEXT = {
  approved: "Approved, running",
  executing: "Approved, running",
  executed: "Done",
  rejected: "Rejected: nothing was changed",
  expired: "Expired: ask again for a fresh preview",
  failed: "Failed: nothing was changed",
};

function saved() {
  try { return JSON.parse(sessionStorage.getItem(STORE) || "{}"); } catch { return {}; }
}
function save(patch) {
  sessionStorage.setItem(STORE, JSON.stringify({ ...saved(), ...patch }));
}

const WORKSPACE_SOURCE = /^passage:(task|document):([^#\s]+)/;

export function citationHref(source, snippet) {
  const workspace = WORKSPACE_SOURCE.exec(source);
  if (workspace) return `/workspace#/${workspace[1]}s/${encodeURIComponent(workspace[2])}`;
  const match = /^book:([^#\s]+)#(\w+)$/.exec(source);
  if (!match) return null;
  const query = new URLSearchParams({ book: match[1], field: match[2], quote: snippet });
  return `/?${query}`;
}

function citation(quote, source) {
  const href = citationHref(source, quote);
  const field = source.split("#")[1] || source;
  const label = el("span", { class: "citation-field" }, ` ${field.replace("_", " ")}`);
  if (!href) return el("q", { class: "citation" }, quote);
  return el("a", { class: "citation", href, title: `Open the ${field} this quotes` }, el("q", {}, quote), label);
}

function actionRef(id) {
  return el("a", { class: "action-ref", href: `#action-${id}` }, "(see the card)");
}

function show(value) {
  if (value === null || value === undefined) return "(none)";
  if (Array.isArray(value)) return value.length ? value.join(", ") : "(empty)";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function remaining(ms) {
  if (ms <= 0) return "expired";
  const minutes = Math.floor(ms / 60000);
  if (minutes >= 60) return `expires in ${Math.floor(minutes / 60)} h ${minutes % 60} min`;
  if (minutes >= 1) return `expires in ${minutes} min`;
  return `expires in ${Math.ceil(ms / 1000)} s`;
}

const BOOK_PAGES = {
  placeholder: "Ask for books, or to change your lists",
  scope: "Books, your lists and ratings",
};

export function mountChat(pageContext, options = {}) {
  const { placeholder, scope } = { ...BOOK_PAGES, ...options };
  const toggle = el("button", {
    type: "button", id: "chat-toggle", class: "chat-toggle",
    "aria-expanded": "false", "aria-controls": "chat-panel",
  }, "Ask the assistant");
  const context = el("p", { id: "chat-context", class: "chat-context" });
  const close = el("button", { type: "button", class: "secondary chat-close", "aria-label": "Close the assistant" }, "Close");
  const fresh = el("button", { type: "button", class: "secondary chat-new" }, "New chat");
  const log = el("div", { id: "chat-log", class: "chat-log", role: "log", "aria-live": "polite", "aria-label": "Conversation" });
  const input = el("textarea", {
    id: "chat-input", rows: "2", maxlength: "4000", autocomplete: "off",
    placeholder,
  });
  const send = el("button", { type: "submit", id: "chat-send" }, "Send");
  const form = el("form", { id: "chat-form", class: "chat-form" },
    el("label", { for: "chat-input", class: "visually-hidden" }, "Message to the assistant"), input, send);
  const panel = el("section", { id: "chat-panel", class: "chat-panel", role: "dialog", "aria-label": "Assistant", hidden: true },
    el("header", { class: "chat-head" },
      el("div", {}, el("h2", {}, "Assistant"), context),
      el("div", { class: "chat-head-buttons" }, fresh, close)),
    log, form);
  document.body.append(toggle, panel);

  const cards = new Map();
  let busy = false;

  function describeContext() {
    const page = pageContext();
    context.textContent = page && page.name ? `About: ${page.name}` : scope;
  }
  window.addEventListener("lectern:pagecontext", describeContext);

  function open(focus = true) {
    panel.hidden = false;
    toggle.setAttribute("aria-expanded", "true");
    describeContext();
    save({ open: true });
    if (focus) input.focus();
  }
  function shut() {
    panel.hidden = true;
    toggle.setAttribute("aria-expanded", "false");
    save({ open: false });
    toggle.focus();
  }
  toggle.addEventListener("click", () => (panel.hidden ? open() : shut()));
  close.addEventListener("click", shut);
  panel.addEventListener("keydown", (event) => {
    if (event.key === "Escape") { event.preventDefault(); shut(); }
  });
  fresh.addEventListener("click", () => {
    save({ conversation: null });
    log.replaceChildren();
    cards.clear();
    input.focus();
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey) { event.preventDefault(); form.requestSubmit(); }
  });

  // Keep the newest part in view, unless the reader scrolled up to read.
  let stick = true;
  log.addEventListener("scroll", () => {
    stick = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  });
  function follow(force = false) {
    if (force) stick = true;
    if (stick) log.scrollTop = log.scrollHeight;
  }

  function userMessage(text) {
    log.append(el("div", { class: "chat-msg user" }, el("p", {}, text)));
    follow(true);
  }

  function assistantMessage() {
    const tools = el("ul", { class: "chat-tools", "aria-label": "Tools the assistant used" });
    const banner = el("p", { class: "chat-flags", role: "note", hidden: true });
    const body = el("div", { class: "chat-text" }, el("p", { class: "chat-working" }, "Working…"));
    const actions = el("div", { class: "chat-actions" });
    const node = el("article", { class: "chat-msg assistant", "data-chunks": "0" }, tools, banner, body, actions);
    log.append(node);
    follow(true);
    return { node, tools, banner, body, actions, text: "", calls: new Map() };
  }

  // The diff the server writes after each proposed change's id is on its card already.
  function renderText(message) {
    const text = message.text.replace(/(\[action [0-9a-fA-F-]+\])[^\n]*/g, "$1");
    message.body.replaceChildren(renderMarkdown(text, { citation, action: actionRef }));
  }

  function flagBanner(message, flags) {
    if (!flags || !flags.length) return;
    message.banner.replaceChildren(
      el("strong", {}, "Check this answer: "),
      flags.map((f) => FLAG_TEXT[f] || f.replaceAll("_", " ")).join("; ") + ".");
    message.banner.dataset.flags = flags.join(" ");
    message.banner.hidden = false;
  }

  // A clarifying question's readings: one button each, sending that reading as the reply.
  function suggestionButtons(message, suggestions) {
    if (!suggestions.length) return;
    const row = el("div", { class: "chat-suggestions" });
    for (const text of suggestions) {
      const button = el("button", { type: "button", class: "chat-suggestion" }, text);
      button.addEventListener("click", () => {
        if (busy) return;
        input.value = text;
        form.requestSubmit();
      });
      row.append(button);
    }
    message.body.append(row);
  }

  function toolLine(message, event) {
    const args = Object.entries(event.input || {})
      .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`).join(", ");
    const line = el("li", { class: "chat-tool running", "data-tool": event.tool },
      el("span", { class: "tool-name" }, event.tool), args ? el("code", {}, args) : null);
    message.calls.set(event.id, line);
    message.tools.append(line);
  }

  function toolDone(message, event) {
    const line = message.calls.get(event.id);
    if (!line) return;
    line.classList.remove("running");
    line.classList.add(event.outcome);
    line.dataset.outcome = event.outcome;
    if (event.outcome === "error" && event.output && event.output.error) line.title = event.output.error;
  }

  // One streamed turn into a new assistant message; resolves with the `done` payload.
  async function run(path, body, onDecision) {
    const message = assistantMessage();
    let done = null;
    let received = false;
    await stream(path, body, ({ event, data }) => {
      received = true;
      if (event === "tool_call") toolLine(message, data);
      else if (event === "tool_result") {
        if (message.calls.has(data.id)) toolDone(message, data);
        else if (onDecision) onDecision(data);
      } else if (event === "action_preview") message.actions.append(card(data));
      else if (event === "text") {
        message.text += data.content;
        message.node.dataset.chunks = String(Number(message.node.dataset.chunks) + 1);
        renderText(message);
      } else if (event === "error") {
        message.body.replaceChildren(el("p", { class: "chat-error", role: "alert" }, data.message));
      } else if (event === "done") {
        done = data;
        flagBanner(message, data.grounding_flags);
        suggestionButtons(message, data.suggestions || []);
        save({ conversation: data.conversation_id });
        message.node.dataset.done = "true";
      }
      follow();
    }).catch((error) => {
      if (onDecision && !received) {
        message.node.remove(); // a refused decision is told on its card
      } else {
        message.body.replaceChildren(el("p", { class: "chat-error", role: "alert" }, error.message));
        message.node.dataset.done = "true";
      }
      throw error;
    });
    return done;
  }

  // --- action cards ---------------------------------------------------------------------

  function setStatus(node, action, note) {
    node.dataset.status = action.status;
    const pending = action.status === "pending";
    const expires = Date.parse(action.expires_at);
    let text = STATUS_TEXT[action.status] || action.status;
    if (pending) text = `Waiting for your approval, ${remaining(expires - serverNow())}`;
    if (action.status === "failed" && action.result && action.result.error) text += ` (${action.result.error})`;
    node.querySelector(".action-status").textContent = note ? `${text}. ${note}` : text;
    node.querySelector(".action-buttons").hidden = !pending;
  }

  // The automatic review attached to a proposal (a correction checked against the book's
  // source records): shown as text beside the diff; it decides nothing.
  function reviewNode(review) {
    if (!review || typeof review !== "object") return null;
    if (review.status !== "done") {
      return el("p", { class: "action-review failed", role: "note" },
        `The automatic review failed (${review.error || "unknown error"}); you can still decide.`);
    }
    return el("details", { class: "action-review", open: true, "data-citations": String((review.citations || []).length) },
      el("summary", {}, "Automatic review"),
      el("p", { class: "review-text" }, String(review.text || "")));
  }

  function card(action) {
    const rows = (action.diff || []).map((d) =>
      el("tr", {}, el("th", { scope: "row" }, d.field), el("td", { class: "old" }, show(d.old)), el("td", { class: "new" }, show(d.new))));
    const table = el("table", { class: "diff" },
      el("caption", { class: "visually-hidden" }, "What changes"),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "field"), el("th", { scope: "col" }, "now"), el("th", { scope: "col" }, "after"))),
      el("tbody", {}, ...rows));
    const approve = el("button", { type: "button", class: "approve" }, "Approve");
    const reject = el("button", { type: "button", class: "secondary reject" }, "Reject");
    const node = el("div", {
      class: "action-card", id: `action-${action.id}`, role: "group",
      "aria-label": `Proposed change: ${action.description}`, "data-action-id": action.id,
    },
    el("p", { class: "action-title" }, action.description),
    table,
    reviewNode(action.review),
    el("p", { class: "action-status", "aria-live": "polite" }),
    el("div", { class: "action-buttons" }, approve, reject));
    node.action = action;
    cards.set(action.id, node);
    setStatus(node, action);
    approve.addEventListener("click", () => decide(node, "approve"));
    reject.addEventListener("click", () => decide(node, "reject"));
    return node;
  }

  async function decide(node, verdict) {
    const action = node.action;
    const buttons = node.querySelectorAll(".action-buttons button");
    buttons.forEach((b) => { b.disabled = true; });
    node.querySelector(".action-status").textContent = verdict === "approve" ? "Approving…" : "Rejecting…";
    try {
      await run(`/assistant/actions/${encodeURIComponent(action.id)}/${verdict}`,
        { page_context: pageContext() || undefined },
        (result) => {
          node.action = { ...action, status: result.outcome, result: result.output };
          setStatus(node, node.action);
        });
      window.dispatchEvent(new CustomEvent("lectern:changed", { detail: { action: action.id } }));
    } catch (error) {
      await refused(node, error);
    } finally {
      buttons.forEach((b) => { b.disabled = false; });
    }
  }

  async function refused(node, error) {
    const title = error instanceof ProblemError ? error.problem.title : "";
    if (title === "Action expired") {
      node.action = { ...node.action, status: "expired" };
      setStatus(node, node.action);
    } else if (title === "Action already decided") {
      node.action = await api(`/assistant/actions/${encodeURIComponent(node.action.id)}`).catch(() => node.action);
      setStatus(node, node.action, "It was decided before.");
    } else if (title === "Changed since preview") {
      node.action = { ...node.action, status: "failed" };
      setStatus(node, node.action, "It changed since the preview; nothing was run.");
      const freshId = error.problem.fresh_action_id;
      if (freshId) {
        const again = await api(`/assistant/actions/${encodeURIComponent(freshId)}`).catch(() => null);
        if (again) node.after(card(again));
      }
    } else {
      setStatus(node, node.action, error.message);
    }
  }

  setInterval(() => {
    for (const node of cards.values()) {
      if (node.action.status !== "pending") continue;
      if (Date.parse(node.action.expires_at) <= serverNow()) node.action = { ...node.action, status: "expired" };
      setStatus(node, node.action);
    }
  }, 15000);

  // --- sending and history ----------------------------------------------------------------

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text || busy) return;
    busy = true;
    send.disabled = true;
    input.value = "";
    userMessage(text);
    const body = { message: text };
    const conversation = saved().conversation;
    if (conversation) body.conversation_id = conversation;
    const page = pageContext();
    if (page) body.page_context = page;
    try {
      await run("/assistant/chat", body);
    } catch {
      // shown in the message
    } finally {
      busy = false;
      send.disabled = false;
      input.focus();
    }
  });

  async function restore() {
    const conversation = saved().conversation;
    if (!conversation) return;
    let history;
    try {
      history = await api(`/assistant/conversations/${encodeURIComponent(conversation)}`);
    } catch {
      save({ conversation: null });
      return;
    }
    const placed = new Set();
    for (const turn of history.messages) {
      if (turn.role === "user") { userMessage(turn.content); continue; }
      const message = assistantMessage();
      message.text = turn.content;
      renderText(message);
      message.node.dataset.done = "true";
      for (const action of history.actions) {
        if (!placed.has(action.id) && turn.content.includes(action.id)) {
          message.actions.append(card(action));
          placed.add(action.id);
        }
      }
    }
  }

  describeContext();
  restore().finally(() => { if (saved().open) open(false); });
  return { open, describeContext };
}
