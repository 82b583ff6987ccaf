// Talking to the API: the key (asked for when the server needs one), JSON calls that turn
// problem responses into errors, and POSTs answered with Server-Sent Events.

const KEY = "lectern-api-key";
let skewMs = 0; // server clock minus ours, from the Date header

export class ProblemError extends Error {
  constructor(problem, status) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.problem = problem;
    this.status = status;
  }
}

export function apiKey() {
  const box = document.getElementById("api-key");
  return (box && box.value) || sessionStorage.getItem(KEY) || "";
}

export function serverNow() {
  return Date.now() + skewMs;
}

function headers(extra = {}) {
  const out = { "Content-Type": "application/json", ...extra };
  const key = apiKey();
  if (key) out["X-API-Key"] = key;
  return out;
}

function noteClock(response) {
  const date = Date.parse(response.headers.get("Date") || "");
  if (!Number.isNaN(date)) skewMs = date - Date.now();
}

async function refuse(response) {
  if (response.status === 401) {
    const box = document.getElementById("key-box");
    if (box) box.hidden = false;
    throw new ProblemError({ title: "Unauthorized", detail: "This server needs an API key: enter it in the search form." }, 401);
  }
  const body = await response.json().catch(() => ({}));
  throw new ProblemError(body, response.status);
}

export async function api(path, options = {}) {
  const response = await fetch(path, { ...options, headers: headers() });
  noteClock(response);
  if (!response.ok) await refuse(response);
  const key = apiKey();
  if (key) sessionStorage.setItem(KEY, key);
  return response.json();
}

// POST `body` and hand each event ({event, data}) to `onEvent` as it arrives.
export async function stream(path, body, onEvent, signal) {
  const response = await fetch(path, {
    method: "POST",
    headers: headers({ Accept: "text/event-stream" }),
    body: JSON.stringify(body || {}),
    signal,
  });
  noteClock(response);
  if (!response.ok) await refuse(response);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let name = "message";
  let data = [];
  const flushLine = (line) => {
    if (line === "") {
      if (data.length) onEvent({ event: name, data: JSON.parse(data.join("\n")) });
      name = "message";
      data = [];
    } else if (!line.startsWith(":")) {
      const at = line.indexOf(":");
      const field = at === -1 ? line : line.slice(0, at);
      let value = at === -1 ? "" : line.slice(at + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (field === "event") name = value;
      else if (field === "data") data.push(value);
    }
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.search(/\r\n|\r|\n/)) !== -1) {
      if (cut === buffer.length - 1 && buffer[cut] === "\r") break; // a "\n" may follow
      const line = buffer.slice(0, cut);
      buffer = buffer.slice(cut + (buffer.startsWith("\r\n", cut) ? 2 : 1));
      flushLine(line);
    }
  }
  if (buffer) flushLine(buffer);
  flushLine("");
}
