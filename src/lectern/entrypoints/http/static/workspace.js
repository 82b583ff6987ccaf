// Lectern's research workspace: projects, a project's tasks by status and its blockers, a
// task with its comments, a document with its reviews, and what needs my attention.
// Plain ES module, no build step; every node is built with the DOM API (data never becomes
// markup). The page context (what the chat bubble sends) is exposed for other scripts:
//   window.lecternPageContext() -> {type, id, name, project_id}
//   the "lectern:pagecontext" event on window (detail: the same object), and
//   <body data-page-type data-page-id data-page-name data-project-id>.
// The chat bubble is the book pages' own (chat.js), sent this page's context; an approved
// change re-renders the view.

import { mountChat } from "./chat.js";

const $ = (id) => document.getElementById(id);
const STATUSES = [["todo", "To do"], ["in_progress", "In progress"], ["in_review", "In review"], ["done", "Done"]];
const PRIORITIES = ["low", "medium", "high", "urgent"];
let context = { type: "dashboard", id: null, name: null, project_id: null };

export function pageContext() {
  return { ...context };
}
window.lecternPageContext = pageContext;

function setContext(type, id = null, name = null, projectId = null) {
  context = { type, id, name, project_id: projectId };
  const body = document.body.dataset;
  body.pageType = type;
  body.pageId = id || "";
  body.pageName = name || "";
  body.projectId = projectId || "";
  window.dispatchEvent(new CustomEvent("lectern:pagecontext", { detail: pageContext() }));
}

function apiKey() {
  return $("api-key").value || sessionStorage.getItem("lectern-api-key") || "";
}

async function api(path, options = {}) {
  const headers = { ...(options.headers || {}) };
  if (options.body !== undefined && !(options.body instanceof Blob)) {
    headers["Content-Type"] = "application/json";
  }
  const key = apiKey();
  if (key) headers["X-API-Key"] = key;
  const response = await fetch(path, { ...options, headers });
  if (response.status === 401) {
    $("key-box").hidden = false;
    throw new Error("This server needs an API key: enter it above.");
  }
  const body = response.status === 204 ? null : await response.json().catch(() => ({}));
  if (!response.ok) throw new Error((body && (body.detail || body.title)) || `HTTP ${response.status}`);
  if (key) sessionStorage.setItem("lectern-api-key", key);
  return body;
}

// An upload answers 202 with a job: poll it until it succeeded (or say why it failed).
async function uploadJob(path, file) {
  let { job } = await api(path, { method: "POST", body: file });
  for (let delay = 250; job.status === "queued" || job.status === "running"; delay = Math.min(delay * 2, 3000)) {
    await new Promise((resolve) => setTimeout(resolve, delay));
    job = await api(job.url);
  }
  if (job.status === "failed") throw new Error(job.errors.map((e) => e.message).join("; ") || "the upload failed");
  return job.result;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

function status(text, isError = false) {
  $("status").textContent = text;
  $("status").className = isError ? "status error" : "status";
}

function show(...nodes) {
  $("view").replaceChildren(...nodes);
}

function today() {
  return new Date().toISOString().slice(0, 10);
}

function taskMeta(task) {
  const parts = [task.priority + " priority"];
  if (task.assignee) parts.push("assigned to " + task.assignee);
  if (task.due_date) parts.push("due " + task.due_date);
  const overdue = task.due_date && task.due_date < today() && task.status !== "done";
  return el("p", { class: overdue ? "meta overdue" : "meta" }, parts.join(" · ") + (overdue ? " · overdue" : ""));
}

function taskItem(task) {
  return el("a", { class: "item", href: `#/tasks/${task.id}` }, el("strong", {}, task.title), taskMeta(task));
}

// A form whose submit runs `action(values)` and then re-renders the current view.
function form(fields, label, action) {
  const inputs = {};
  const node = el("form", { class: "inline-form" });
  for (const [name, spec] of Object.entries(fields)) {
    let input;
    if (spec.options) {
      input = el("select", { name }, ...spec.options.map((o) => el("option", { value: o, selected: o === spec.value }, o)));
    } else if (spec.multiline) {
      input = el("textarea", { name, required: spec.required, maxlength: "4000" });
    } else {
      input = el("input", { name, type: spec.type || "text", required: spec.required, value: spec.value || "" });
    }
    inputs[name] = input;
    node.append(el("label", { class: spec.multiline ? "wide" : null }, spec.label || name, input));
  }
  node.append(el("button", { type: "submit" }, label));
  node.addEventListener("submit", async (event) => {
    event.preventDefault();
    const values = {};
    for (const [name, input] of Object.entries(inputs)) values[name] = input.type === "file" ? input.files[0] : input.value.trim();
    try {
      await action(values);
      await route();
    } catch (error) {
      status(error.message, true);
    }
  });
  return node;
}

async function projectsView() {
  setContext("dashboard", "projects", "Projects");
  const [organizations, projects] = await Promise.all([api("/organizations"), api("/projects")]);
  const panels = organizations.map((org) => {
    const own = projects.filter((p) => p.organization_id === org.id);
    return el("section", { class: "panel" },
      el("h2", {}, `${org.name} (you: ${org.role})`),
      ...own.map((p) => el("a", { class: "item", href: `#/projects/${p.id}` }, el("strong", {}, p.name), el("p", { class: "meta" }, `${p.status} · ${p.description}`))),
      own.length ? null : el("p", { class: "meta" }, "No projects yet."),
      org.role !== "viewer" ? form({ name: { label: "New project", required: true }, description: { label: "Description" } }, "Create project",
        (v) => api(`/organizations/${org.id}/projects`, { method: "POST", body: JSON.stringify(v) })) : null);
  });
  show(...panels, el("section", { class: "panel" }, el("h2", {}, "New organization"),
    form({ name: { label: "Name", required: true } }, "Create organization",
      (v) => api("/organizations", { method: "POST", body: JSON.stringify(v) }))));
}

async function projectView(id) {
  const project = await api(`/projects/${id}`);
  setContext("project", project.id, project.name, project.id);
  const editor = project.role !== "viewer";
  const board = el("div", { class: "board" }, ...STATUSES.map(([key, title]) => {
    const tasks = project.tasks.filter((t) => t.status === key);
    return el("section", { class: "column", "aria-label": title }, el("h3", {}, `${title} (${tasks.length})`), ...tasks.map(taskItem));
  }));
  const titleOf = Object.fromEntries(project.tasks.map((t) => [t.id, t.title]));
  const blockers = el("section", { class: "panel" }, el("h2", {}, "Blockers"),
    ...project.blockers.map((b) => el("div", { class: "item" },
      el("strong", {}, b.status === "open" ? "Open: " : "Resolved: "), b.description,
      b.task_id ? el("p", { class: "meta" }, "blocks ", el("a", { href: `#/tasks/${b.task_id}` }, titleOf[b.task_id] || "a task")) : null,
      b.resolution ? el("p", { class: "meta" }, "resolution: " + b.resolution) : null,
      editor && b.status === "open" ? form({ resolution: { label: "Resolution", required: true } }, "Resolve",
        (v) => api(`/blockers/${b.id}/resolve`, { method: "POST", body: JSON.stringify(v) })) : null)),
    project.blockers.length ? null : el("p", { class: "meta" }, "Nothing is blocking this project."),
    editor ? form({ description: { label: "New blocker", required: true } }, "Add blocker",
      (v) => api(`/projects/${id}/blockers`, { method: "POST", body: JSON.stringify(v) })) : null);
  const documents = el("section", { class: "panel" }, el("h2", {}, "Documents"),
    ...project.documents.map((d) => el("a", { class: "item", href: `#/documents/${d.id}` }, el("strong", {}, d.title), el("p", { class: "meta" }, `${d.collection} · ${d.origin} by ${d.added_by}`))),
    editor ? form({ file: { label: "Upload a document", type: "file", required: true } }, "Upload",
      (v) => uploadJob(`/projects/${id}/uploads?filename=${encodeURIComponent(v.file.name)}`, v.file)) : null);
  show(
    el("h2", {}, project.name),
    el("p", { class: "meta" }, `${project.status} · ${project.description}`),
    board,
    editor ? el("section", { class: "panel" }, el("h2", {}, "New task"),
      form({ title: { label: "Title", required: true }, priority: { label: "Priority", options: PRIORITIES, value: "medium" },
        assignee: { label: "Assignee (user)" }, due_date: { label: "Due", type: "date" } }, "Create task",
      (v) => api(`/projects/${id}/tasks`, { method: "POST", body: JSON.stringify({ ...v, assignee: v.assignee || null, due_date: v.due_date || null }) }))) : null,
    blockers,
    documents,
  );
}

function comment(c) {
  const review = c.author === "lectern-review";
  return el("div", { class: review ? "comment review" : "comment", "data-comment-id": c.id },
    el("span", { class: "who" }, review ? "Automatic review" : c.author), " · ",
    el("span", { class: "meta" }, new Date(c.created_at).toLocaleString()),
    el("div", {}, c.text));
}

async function taskView(id) {
  const task = await api(`/tasks/${id}`);
  setContext("task", task.id, task.title, task.project_id);
  const editor = task.role !== "viewer";
  const change = async (field, value) => {
    await api(`/tasks/${id}`, { method: "PATCH", body: JSON.stringify({ [field]: value || null }) });
    await route();
  };
  const fields = el("div", { class: "inline-form" },
    el("label", {}, "Status", el("select", { disabled: !editor, onchange: (e) => change("status", e.target.value) },
      ...STATUSES.map(([key, title]) => el("option", { value: key, selected: key === task.status }, title)))),
    el("label", {}, "Priority", el("select", { disabled: !editor, onchange: (e) => change("priority", e.target.value) },
      ...PRIORITIES.map((p) => el("option", { value: p, selected: p === task.priority }, p)))),
    el("label", {}, "Assignee", el("input", { value: task.assignee || "", disabled: !editor, onchange: (e) => change("assignee", e.target.value.trim()) })),
    el("label", {}, "Due", el("input", { type: "date", value: task.due_date || "", disabled: !editor, onchange: (e) => change("due_date", e.target.value) })));
  show(
    el("p", { class: "meta" }, el("a", { href: `#/projects/${task.project_id}` }, task.project_name)),
    el("h2", {}, task.title),
    task.description ? el("p", {}, task.description) : null,
    taskMeta(task),
    fields,
    el("section", { class: "panel" }, el("h2", {}, "Blockers"),
      ...task.blockers.map((b) => el("p", {}, `${b.status}: ${b.description}`)),
      task.blockers.length ? null : el("p", { class: "meta" }, "None.")),
    el("section", { class: "panel", id: "comments" }, el("h2", {}, `Comments (${task.comments.length})`),
      ...task.comments.map(comment),
      editor ? form({ text: { label: "Comment", multiline: true, required: true } }, "Add comment",
        (v) => api(`/tasks/${id}/comments`, { method: "POST", body: JSON.stringify(v) })) : null),
  );
}

async function documentView(id) {
  const [doc, comments] = await Promise.all([api(`/project-documents/${id}`), api(`/project-documents/${id}/comments`)]);
  setContext("document", doc.id, doc.title, doc.project_id);
  show(
    el("p", { class: "meta" }, el("a", { href: `#/projects/${doc.project_id}` }, "Back to the project")),
    el("h2", {}, doc.title),
    el("p", { class: "meta" }, `${doc.label} · ${doc.collection}`),
    el("div", { class: "doc-text" }, doc.text),
    el("section", { class: "panel" }, el("h2", {}, `Comments and reviews (${comments.length})`),
      ...comments.map(comment),
      form({ text: { label: "Comment", multiline: true, required: true } }, "Add comment",
        (v) => api(`/project-documents/${id}/comments`, { method: "POST", body: JSON.stringify(v) }))),
  );
}

async function dashboardView() {
  const summary = await api("/attention");
  setContext("dashboard", "attention", "Needs my attention");
  const section = (title, tasks) => el("section", { class: "panel" }, el("h2", {}, `${title} (${tasks.length})`),
    ...tasks.map(taskItem), tasks.length ? null : el("p", { class: "meta" }, "Nothing."));
  show(
    el("h2", {}, "What needs my attention"),
    section("Overdue", summary.overdue),
    section("Blocked", summary.blocked),
    section("In review", summary.in_review),
    section("Assigned to me", summary.assigned_to_me),
  );
}

async function route() {
  const [, kind, id] = (location.hash || "#/").split("/");
  status("");
  try {
    if (kind === "projects" && id) await projectView(decodeURIComponent(id));
    else if (kind === "tasks" && id) await taskView(decodeURIComponent(id));
    else if (kind === "documents" && id) await documentView(decodeURIComponent(id));
    else if (kind === "dashboard") await dashboardView();
    else await projectsView();
  } catch (error) {
    status(error.message, true);
  }
}

mountChat(pageContext, {
  placeholder: "Ask about your projects and tasks, or to change them",
  scope: "Your projects, tasks and documents",
});
window.addEventListener("lectern:changed", () => route());
window.addEventListener("hashchange", route);
$("key-save").addEventListener("click", () => route());
route();
