// The console: a page over the public /v1 API and its WebSocket, nothing else. The API key lives in
// this tab's session storage and travels only in the Authorization header (and, for the WebSocket,
// in its first message). Every text from the server is put in as text, never as HTML.
import { lang, setLang, t } from "./i18n.js";

const KEY = "memgw.key";
const state = { me: null, socket: null, waiting: Promise.resolve([]) };
const main = () => document.getElementById("main");
const STALE = Symbol("stale");
let generation = 0; // the page being shown; a slower, older render never overwrites a newer one

function mount(gen, ...nodes) {
  if (gen !== generation) throw STALE;
  main().replaceChildren(...nodes);
}

// -- small helpers -----------------------------------------------------------------------------------

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function field(labelText, input) {
  const id = input.id || `f-${Math.random().toString(36).slice(2, 9)}`;
  input.id = id;
  return el("div", {}, el("label", { for: id }, labelText), input);
}

const when = (iso) => (iso ? new Date(iso).toLocaleString(lang() === "zh" ? "zh-CN" : undefined) : "");
const say = (message) => (document.getElementById("live").textContent = message);

class ApiError extends Error {
  constructor(status, code, detail) {
    super(detail);
    this.status = status;
    this.code = code;
  }
}

async function api(method, path, body) {
  const headers = { authorization: `Bearer ${sessionStorage.getItem(KEY)}` };
  let payload;
  if (typeof body === "string") {
    headers["content-type"] = "text/plain";
    payload = body;
  } else if (body !== undefined) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(body);
  }
  const response = await fetch(path, { method, headers, body: payload });
  const text = await response.text();
  let data = text;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    /* a text answer (the TOML export) */
  }
  if (!response.ok) {
    const detail = (data && data.detail) || response.statusText;
    if (response.status === 401) signOut(detail);
    throw new ApiError(response.status, (data && data.error) || "error", detail);
  }
  return data;
}

function failure(error) {
  return el("p", { class: "error", role: "alert" }, `${error.code || "error"}: ${error.message}`);
}

function table(headers, rows) {
  return el(
    "div",
    { class: "table-wrap" },
    el("table", {}, el("thead", {}, el("tr", {}, headers.map((h) => el("th", { scope: "col" }, h)))), el("tbody", {}, rows)),
  );
}

// -- shell, sign-in, routing -------------------------------------------------------------------------

const PAGES = { overview, sources, reviews, memories, access, activity };

function header() {
  const top = document.getElementById("top");
  top.replaceChildren();
  const page = (location.hash.replace("#/", "") || "overview").split("?")[0];
  const nav = el(
    "nav",
    { "aria-label": "main" },
    Object.keys(PAGES).map((name) => el("a", { href: `#/${name}`, "aria-current": name === page ? "page" : null }, t(name))),
  );
  const switcher = el("button", { type: "button", onclick: () => { setLang(lang() === "zh" ? "en" : "zh"); route(); } }, t("language"));
  const who = state.me
    ? el("div", { class: "who" }, el("span", { "data-testid": "who" }, state.me.agent_id ? `${state.me.user_id} · ${state.me.agent_id}` : state.me.user_id), switcher, el("button", { type: "button", onclick: () => signOut() }, t("signOut")))
    : el("div", { class: "who" }, switcher);
  top.append(el("span", { class: "brand" }, t("title")), state.me ? nav : "", who);
}

// How many reviews wait for this key's user, on the Reviews link of every page. Asked once per page
// shown: the overview reads the same answer (state.waiting) for its notice.
async function reviewBadge() {
  try {
    const open = await state.waiting;
    const link = document.querySelector('header nav a[href="#/reviews"]');
    if (link && open.length) link.append(" ", el("span", { class: "count", "data-testid": "reviews-badge", "aria-label": `${open.length} ${t("reviewsWaiting")}` }, String(open.length)));
  } catch {
    /* the page says what went wrong; the badge is only a hint */
  }
}

function signOut(reason) {
  sessionStorage.removeItem(KEY);
  state.me = null;
  if (state.socket) state.socket.close();
  state.socket = null;
  signIn(reason);
}

function signIn(problem) {
  header();
  const input = el("input", { type: "password", name: "api_key", autocomplete: "off", required: true });
  const message = el("p", { class: "error", role: "alert" }, problem || "");
  const form = el(
    "form",
    { class: "card signin", onsubmit: async (event) => {
        event.preventDefault();
        sessionStorage.setItem(KEY, input.value.trim());
        try {
          state.me = await api("GET", "/v1/me");
          route(); // the page the address asks for (the overview by default)
        } catch (error) {
          sessionStorage.removeItem(KEY);
          message.textContent = error.message;
        }
      } },
    el("h1", {}, t("signIn")),
    field(t("apiKey"), input),
    el("p", { class: "muted" }, t("keyHint")),
    el("button", { class: "primary", type: "submit" }, t("signIn")),
    message,
  );
  main().replaceChildren(form);
  input.focus();
}

async function route() {
  if (!sessionStorage.getItem(KEY)) return signIn();
  if (!state.me) {
    try {
      state.me = await api("GET", "/v1/me");
    } catch {
      return;
    }
  }
  header();
  state.waiting = api("GET", "/v1/reviews?status=open");
  state.waiting.catch(() => {}); // a page that never reads it must not leave a rejection unhandled
  reviewBadge();
  const gen = ++generation;
  const name = (location.hash.replace("#/", "") || "overview").split("?")[0];
  const page = PAGES[name] || overview;
  main().replaceChildren(el("p", { class: "muted" }, "…"));
  document.title = `${t(name)} · ${t("title")}`;
  try {
    await page(gen);
  } catch (error) {
    if (error !== STALE && gen === generation) main().replaceChildren(failure(error));
  }
}

// -- overview -----------------------------------------------------------------------------------------

function barChart(series, testid) {
  const width = 600, height = 160, pad = 18;
  const days = [...new Set(series.flatMap((s) => s.points.map((p) => p.day)))].sort();
  const max = Math.max(1, ...series.flatMap((s) => s.points.map((p) => p.value)));
  const slot = (width - pad * 2) / days.length;
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "chart");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("data-testid", testid);
  svg.setAttribute("aria-label", series.map((s) => `${s.name}: ${s.points.map((p) => `${p.day} ${p.value}`).join(", ") || t("nothing")}`).join("; "));
  if (!days.length) {
    const empty = document.createElementNS("http://www.w3.org/2000/svg", "text");
    empty.setAttribute("x", pad);
    empty.setAttribute("y", height / 2);
    empty.textContent = t("nothing");
    svg.append(empty);
  }
  series.forEach((s, n) => {
    for (const point of s.points) {
      const x = pad + days.indexOf(point.day) * slot + (slot / series.length) * n;
      const h = ((height - pad * 2) * point.value) / max;
      const rect = document.createElementNS("http://www.w3.org/2000/svg", "rect");
      Object.entries({ x, y: height - pad - h, width: Math.max(2, slot / series.length - 2), height: h, class: s.cls }).forEach(([k, v]) => rect.setAttribute(k, v));
      const tip = document.createElementNS("http://www.w3.org/2000/svg", "title");
      tip.textContent = `${s.name} · ${point.day}: ${point.value}`;
      rect.append(tip);
      svg.append(rect);
    }
  });
  days.forEach((day, i) => {
    if (days.length > 12 && i % Math.ceil(days.length / 12)) return;
    const label = document.createElementNS("http://www.w3.org/2000/svg", "text");
    label.setAttribute("x", pad + i * slot);
    label.setAttribute("y", height - 4);
    label.textContent = day.slice(5);
    svg.append(label);
  });
  const legend = el("ul", { class: "legend", "data-testid": `${testid}-legend` }, series.map((s) =>
    el("li", {}, el("span", { class: `swatch ${s.cls}`, "aria-hidden": "true" }), `${s.name}: `,
      el("strong", {}, String(s.points.reduce((sum, p) => sum + p.value, 0))), ` (${t("max")} ${Math.max(0, ...s.points.map((p) => p.value))})`)));
  return el("figure", { class: "chart" }, svg, legend);
}

async function overview(gen) {
  const [stats, waiting] = await Promise.all([api("GET", "/v1/stats"), state.waiting]);
  const rows = stats.by_namespace.map((r) => el("tr", {}, el("td", {}, r.namespace), el("td", {}, r.memory_type), el("td", {}, r.count)));
  mount(
    gen,
    el("h1", {}, t("overview")),
    waiting.length
      ? el("p", { class: "callout", role: "status", "data-testid": "reviews-waiting" }, el("a", { href: "#/reviews" }, `${waiting.length} ${t("reviewsWaiting")}`))
      : "",
    el("section", { class: "card" }, el("h2", {}, `${t("memoriesPerDay")} / ${t("syncsPerDay")}`),
      barChart([
        { name: t("memoriesPerDay"), cls: "m", points: stats.memories_per_day.map((p) => ({ day: p.day, value: p.count })) },
        { name: t("syncsPerDay"), cls: "s", points: stats.syncs_per_day.map((p) => ({ day: p.day, value: p.runs })) },
      ], "chart")),
    rows.length ? table([t("namespace"), t("type"), t("count")], rows) : el("p", { class: "muted" }, t("nothing")),
  );
}

// -- sources, with live progress ----------------------------------------------------------------------

function listen(onEvent) {
  if (state.socket) state.socket.close();
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/v1/events/ws`);
  socket.addEventListener("open", () => socket.send(JSON.stringify({ api_key: sessionStorage.getItem(KEY) })));
  socket.addEventListener("message", (message) => {
    const event = JSON.parse(message.data);
    if (event.type === "MemorySyncStageChanged") onEvent(event);
  });
  state.socket = socket;
  return new Promise((resolve) => socket.addEventListener("message", resolve, { once: true }));
}

function progressCell(row) {
  const bar = el("progress", { max: 1, value: 0, "aria-label": `${t("progress")} ${row.source_id}` });
  const stage = el("span", { class: `badge ${row.sync_stage || ""}`, "data-testid": "stage" }, row.sync_stage || "");
  return el("td", { dataset: { testid: "progress" } }, bar, " ", stage);
}

async function sources(gen) {
  const [status, entries, kinds] = await Promise.all([api("GET", "/v1/sources/status"), api("GET", "/v1/sources"), api("GET", "/v1/sources/kinds")]);
  const byId = Object.fromEntries(entries.map((e) => [e.id, e]));
  const body = el("tbody");
  const message = el("p", { role: "status" });
  for (const row of status) {
    const entry = byId[row.source_id] || {};
    const tr = el(
      "tr",
      { dataset: { source: row.source_id, stages: "" } },
      el("th", { scope: "row" }, row.source_id, el("div", { class: "muted" }, row.label || "")),
      el("td", {}, row.kind),
      el("td", {}, el("span", { class: `badge ${row.freshness}` }, row.freshness)),
      el("td", {}, row.error ? el("span", { class: "error" }, row.error) : when(row.last_chunk_at)),
      el("td", {}, `${row.synced_chunks} / ${row.pending_items}`),
      el("td", { dataset: { testid: "budget", limit: entry.max_tokens_per_sync || "" } }, entry.max_tokens_per_sync ? `${entry.max_tokens_per_sync} tok` : "—"),
      progressCell(row),
      el("td", {}, el("div", { class: "actions" },
        el("button", { type: "button", class: "primary", onclick: async () => {
          try { await api("POST", `/v1/sources/${row.source_id}/sync`); } catch (error) { message.replaceChildren(failure(error)); }
        } }, t("sync")),
        el("button", { type: "button", onclick: () => editSource(kinds, entry) }, t("edit")),
        el("button", { type: "button", class: "danger", onclick: async () => {
          if (!confirm(t("confirmRemove"))) return;
          await api("DELETE", `/v1/sources/${row.source_id}`);
          route();
        } }, t("remove")),
      )),
    );
    body.append(tr);
  }
  mount(
    gen,
    el("h1", {}, t("sources")),
    message,
    status.length ? el("div", { class: "table-wrap" }, el("table", {}, el("thead", {}, el("tr", {}, [t("id"), t("kind"), t("freshness"), t("lastRun"), t("chunks"), t("budget"), t("progress"), ""].map((h) => el("th", { scope: "col" }, h)))), body)) : el("p", { class: "muted" }, t("nothing")),
    sourceForm(kinds),
    tomlForms(),
  );
  if (gen !== generation) return;
  await listen((event) => {
    const tr = body.querySelector(`tr[data-source="${CSS.escape(event.connection_id)}"]`);
    if (!tr) return;
    const counts = event.counts || {};
    const done = (counts.items_new || 0) + (counts.items_changed || 0) + (counts.items_unchanged || 0) + (counts.items_failed || 0);
    const bar = tr.querySelector("progress");
    bar.max = Math.max(1, counts.items_seen || 0);
    bar.value = event.stage === "Completed" ? bar.max : done;
    const badge = tr.querySelector("[data-testid=stage]");
    badge.className = `badge ${event.stage}`;
    badge.textContent = event.detail && event.stage === "Failed" ? `${event.stage}: ${event.detail}` : event.stage;
    tr.dataset.stages = [tr.dataset.stages, event.stage].filter(Boolean).join(",");
    const budget = tr.querySelector("[data-testid=budget]");
    budget.textContent = budget.dataset.limit ? `${counts.tokens || 0} / ${budget.dataset.limit} tok` : `${counts.tokens || 0} tok`;
    say(`${event.connection_id}: ${event.stage}`);
  });
}

// One form per kind, its fields from the server (GET /v1/sources/kinds): required ones marked, a
// credential as a password box that an edit leaves as it is unless something is typed.
function sourceForm(kinds, entry) {
  const id = el("input", { name: "id", required: true, value: entry?.id || "", readonly: entry ? true : null });
  const kind = el("select", { name: "kind", disabled: entry ? true : null }, kinds.map((k) => el("option", { value: k.kind, selected: entry?.kind === k.kind }, k.kind)));
  const label = el("input", { name: "label", value: entry?.label || "" });
  const budget = el("input", { name: "max_tokens_per_sync", type: "number", min: 1, value: entry?.max_tokens_per_sync || "" });
  const fieldset = el("fieldset", { class: "row kind-fields" });
  const message = el("p", { role: "status" });
  const spec = () => kinds.find((k) => k.kind === kind.value) || kinds[0];
  const draw = () => {
    const { required, optional, secret } = spec();
    fieldset.replaceChildren(el("legend", {}, `${t("fieldsOf")} ${kind.value}`), ...[...required, ...optional].map((name) => {
      const isSecret = secret.includes(name);
      const kept = entry && isSecret && (entry.credentials || []).includes(name);
      const input = el("input", {
        name: `field.${name}`, type: isSecret ? "password" : "text", autocomplete: "off",
        required: required.includes(name) && !kept ? true : null,
        value: isSecret ? "" : [entry?.fields?.[name] ?? ""].flat().join(", "),
        placeholder: kept ? t("secretKept") : "", "aria-describedby": `help-${name}`,
      });
      return el("div", {}, el("label", { for: input.id = `f-${name}` }, `${name}${required.includes(name) ? " *" : ""}`), input, el("p", { class: "muted help", id: `help-${name}` }, t(`help.${name}`)));
    }));
  };
  kind.addEventListener("change", draw);
  draw();
  return el(
    "form",
    { class: "card", "aria-label": entry ? `${t("edit")} ${entry.id}` : t("addSource"), onsubmit: async (event) => {
        event.preventDefault();
        try {
          const fields = {};
          for (const input of fieldset.querySelectorAll("input")) {
            const name = input.name.slice("field.".length);
            if (input.value === "") {
              if (entry && name in (entry.fields || {})) fields[name] = null; // cleared: a patch's null removes it
              continue;
            }
            const { lists, numbers } = spec();
            fields[name] = lists.includes(name) ? input.value.split(",").map((v) => v.trim()).filter(Boolean) : numbers.includes(name) ? Number(input.value) : input.value;
          }
          const body = { label: label.value, fields, max_tokens_per_sync: budget.value ? Number(budget.value) : null };
          if (entry) await api("PATCH", `/v1/sources/${entry.id}`, body);
          else await api("POST", "/v1/sources", { id: id.value, kind: kind.value, ...body });
          route();
        } catch (error) {
          message.replaceChildren(failure(error));
        }
      } },
    el("h2", {}, entry ? `${t("edit")} ${entry.id}` : t("addSource")),
    el("div", { class: "row" }, field(t("id"), id), field(t("kind"), kind), field(t("label"), label), field(t("maxTokens"), budget)),
    fieldset,
    el("p", {}, el("button", { class: "primary", type: "submit" }, t("save"))),
    message,
  );
}

function editSource(kinds, entry) {
  const form = sourceForm(kinds, entry);
  main().querySelector("form.card")?.replaceWith(form);
  form.querySelector("input,textarea")?.focus();
}

function tomlForms() {
  const text = el("textarea", { name: "toml" });
  const message = el("pre", { role: "status" });
  return el(
    "section",
    { class: "card" },
    el("h2", {}, t("importToml")),
    field("config.toml", text),
    el("div", { class: "actions" },
      el("button", { type: "button", onclick: async () => {
        try { message.textContent = JSON.stringify(await api("POST", "/v1/sources/import", text.value), null, 2); } catch (error) { message.replaceChildren(failure(error)); }
      } }, t("import")),
      el("button", { type: "button", onclick: async () => {
        const toml = await api("GET", "/v1/sources/export");
        const link = el("a", { href: URL.createObjectURL(new Blob([toml], { type: "text/plain" })), download: "memory_sources.toml" });
        link.click();
      } }, t("exportToml")),
    ),
    message,
  );
}

// -- reviews ------------------------------------------------------------------------------------------

async function memoryOrNull(id) {
  try { return await api("GET", `/v1/memory/${id}`); } catch { return null; }
}

function side(title, memory, id) {
  if (!memory) return el("div", { class: "side" }, el("h3", {}, title), el("p", { class: "muted" }, id));
  const sessions = (memory.metadata && memory.metadata.sessions) || [];
  return el("div", { class: "side" }, el("h3", {}, title),
    el("blockquote", {}, memory.content),
    el("p", { class: "muted" }, `confidence ${memory.confidence.toFixed(2)} · importance ${memory.importance.toFixed(2)} · v${memory.version} · ${memory.source} · ${when(memory.updated_at)}`),
    sessions.length ? el("p", { class: "muted" }, `sessions: ${sessions.join(", ")}`) : "");
}

async function reviews(gen) {
  const status = new URLSearchParams(location.hash.split("?")[1] || "").get("status") || "open";
  const list = await api("GET", `/v1/reviews?status=${status}`);
  const cards = [];
  for (const review of list) {
    const [oldId, newId] = review.memory_ids;
    const [oldM, newM] = await Promise.all([memoryOrNull(oldId), newId ? memoryOrNull(newId) : null]);
    const mine = el("textarea", { name: "edited" }, (newM || oldM || {}).content || "");
    const message = el("p", { role: "status" });
    const decide = (decision) => async () => {
      try {
        await api("POST", `/v1/reviews/${review.id}/decision`, decision === "edit" ? { decision, edited_content: mine.value } : { decision });
        message.textContent = t("decisionSent");
        card.querySelectorAll("button").forEach((b) => (b.disabled = true));
      } catch (error) {
        message.replaceChildren(failure(error));
      }
    };
    const card = el("section", { class: "card", dataset: { review: review.id } },
      el("h2", {}, `${review.kind} · ${when(review.created_at)}`),
      el("p", {}, el("strong", {}, `${t("why")}: `), review.reason),
      el("div", { class: "sides" }, side(t("old"), oldM, oldId), newId ? side(t("new"), newM, newId) : ""),
      review.status === "open"
        ? el("div", {},
            el("div", { class: "actions" }, ["accept_new", "keep_old", "keep_both"].map((d) => el("button", { type: "button", class: d === "accept_new" ? "primary" : "", onclick: decide(d), dataset: { decision: d } }, t(d)))),
            field(t("yourVersion"), mine),
            el("button", { type: "button", onclick: decide("edit"), dataset: { decision: "edit" } }, t("editDecision")))
        : el("p", {}, el("span", { class: "badge" }, review.decision || "")),
      message);
    cards.push(card);
  }
  mount(
    gen,
    el("h1", {}, t("reviews")),
    el("p", { class: "actions" }, el("a", { href: "#/reviews?status=open" }, t("open")), el("a", { href: "#/reviews?status=decided" }, t("decided"))),
    ...(cards.length ? cards : [el("p", { class: "muted" }, t("noReviews"))]),
  );
}

// -- memories -----------------------------------------------------------------------------------------

const PAGE_SIZE = 20;

function hitView(memory, score, explain) {
  const below = el("div");
  const message = el("span", { role: "status" });
  const view = el("div", { class: "hit", dataset: { memory: memory.id } },
    el("div", { class: "content" }, memory.content),
    el("div", { class: "meta" }, `${memory.memory_type} · ${memory.namespace} · ${memory.status} · v${memory.version}${score !== undefined ? ` · ${t("score")} ${score.toFixed(4)}` : ""}`),
    explain ? el("div", { class: "explain", "data-testid": "explain" }, Object.entries(explain).map(([k, v]) => `${k}=${typeof v === "number" ? Math.round(v * 10000) / 10000 : v}`).join("  ")) : "",
    el("div", { class: "actions" },
      el("button", { type: "button", onclick: async () => {
        const versions = await api("GET", `/v1/memory/${memory.id}/history`);
        below.replaceChildren(el("ol", {}, versions.map((v) => el("li", {}, `v${v.version} ${v.change} · ${v.changed_by || ""} · ${when(v.created_at)} — ${v.snapshot.content || ""}`))));
      } }, t("history")),
      el("button", { type: "button", onclick: async () => below.replaceChildren(await provenance(memory)) }, t("origin")),
      el("button", { type: "button", onclick: () => below.replaceChildren(editMemory(memory, view)) }, t("edit")),
      ["useful", "incorrect", "outdated", "duplicate"].map((kind) => el("button", { type: "button", onclick: async () => {
        try { await api("POST", `/v1/memory/${memory.id}/feedback`, { feedback: kind }); message.textContent = t("thanks"); } catch (error) { message.replaceChildren(failure(error)); }
      } }, t(kind))),
      message),
    below);
  return view;
}

// Where a memory came from: the source item it was cut from, the sessions that said it, its file or page.
async function provenance(memory) {
  const parts = [];
  try {
    const itemId = memory.metadata && memory.metadata.item_id;
    if (memory.source_id && itemId) {
      const item = await api("GET", `/v1/sources/${encodeURIComponent(memory.source_id)}/items/${itemId.split("/").map(encodeURIComponent).join("/")}`);
      parts.push(el("h3", {}, `${t("sourceItem")}: ${memory.source_id} / ${item.title || item.item_id}`), el("pre", { class: "excerpt" }, (item.text || "").slice(0, 2000)));
    }
    const sessions = [...new Set([memory.session_id, ...((memory.metadata && memory.metadata.sessions) || [])].filter(Boolean))];
    for (const id of sessions) {
      const episodes = await api("GET", `/v1/sessions/${encodeURIComponent(id)}/episodes`);
      parts.push(el("h3", {}, `${t("session")} ${id}`), el("ol", {}, episodes.map((e) => el("li", {}, `${when(e.created_at)} — ${e.content}`))));
    }
  } catch (error) {
    parts.push(failure(error));
  }
  if (memory.source_uri) parts.push(el("p", { class: "muted" }, memory.source_uri));
  if (!parts.length) parts.push(el("p", { class: "muted" }, `${t("origin")}: ${memory.source}`));
  return el("div", { class: "origin", "data-testid": "origin" }, ...parts);
}

function editMemory(memory, view) {
  const content = el("textarea", { name: "content" }, memory.content);
  const tags = el("input", { name: "tags", value: memory.tags.join(", ") });
  const message = el("p", { role: "status" });
  return el("form", { class: "edit", onsubmit: async (event) => {
      event.preventDefault();
      try {
        const body = { content: content.value, tags: tags.value.split(",").map((s) => s.trim()).filter(Boolean), version: memory.version };
        const saved = await api("PATCH", `/v1/memory/${memory.id}`, body);
        view.replaceWith(hitView(saved));
        say(t("saved"));
      } catch (error) {
        message.replaceChildren(failure(error));
      }
    } },
    field(t("content"), content), field(t("tags"), tags),
    el("button", { class: "primary", type: "submit" }, t("save")), message);
}

async function memories(gen) {
  const query = el("input", { name: "q", type: "search" });
  const mode = el("select", { name: "mode" }, ["hybrid", "dense", "sparse"].map((m) => el("option", { value: m }, m)));
  const explain = el("input", { name: "explain", type: "checkbox" });
  const namespace = el("input", { name: "namespace" });
  const type = el("select", { name: "type" }, ["", "profile", "preference", "fact", "decision", "experience", "failure", "note", "resource"].map((m) => el("option", { value: m }, m || t("any"))));
  const tags = el("input", { name: "tags" });
  const status = el("select", { name: "status" }, ["active", "candidate", "needs_review", "archived"].map((m) => el("option", { value: m }, m)));
  const since = el("input", { name: "since", type: "date" });
  const until = el("input", { name: "until", type: "date" });
  const out = el("section", { class: "card", "aria-live": "polite" });
  let cursor = null;
  const cursors = []; // the pages before this one, to go back
  const run = async (event, paging = false) => {
    event?.preventDefault();
    if (!paging) { cursor = null; cursors.length = 0; }
    const tagList = tags.value.split(",").map((s) => s.trim()).filter(Boolean);
    try {
      let items, next = null;
      if (query.value.trim()) {
        const body = { query: query.value, limit: 20, mode: mode.value, explain: explain.checked, statuses: [status.value] };
        if (namespace.value) body.namespaces = [namespace.value];
        const found = await api("POST", "/v1/memory/search", body);
        items = found.results
          .filter((h) => (!type.value || h.memory.memory_type === type.value) && tagList.every((tag) => h.memory.tags.includes(tag)))
          .filter((h) => (!since.value || h.memory.created_at >= since.value) && (!until.value || h.memory.created_at <= `${until.value}T23:59:59`))
          .map((h) => hitView(h.memory, h.score, h.explain));
      } else {
        const params = new URLSearchParams({ limit: String(PAGE_SIZE), status: status.value });
        if (cursor) params.set("cursor", cursor);
        if (namespace.value) params.set("namespace", namespace.value);
        if (type.value) params.set("memory_type", type.value);
        tagList.forEach((tag) => params.append("tags", tag));
        if (since.value) params.set("since", `${since.value}T00:00:00Z`);
        if (until.value) params.set("until", `${until.value}T23:59:59Z`);
        const page = await api("GET", `/v1/memory?${params}`);
        items = page.items.map((m) => hitView(m));
        next = page.next_cursor;
      }
      const pager = el("p", { class: "actions" },
        cursors.length ? el("button", { type: "button", onclick: () => { cursor = cursors.pop() || null; run(null, true); } }, t("previous")) : "",
        next ? el("button", { type: "button", onclick: () => { cursors.push(cursor); cursor = next; run(null, true); } }, t("next")) : "");
      out.dataset.query = query.value.trim(); // what the list shows, for a reader (or a test) to know it is fresh
      out.replaceChildren(el("p", { class: "muted", "data-testid": "count" }, `${items.length} ${t("results")}${cursors.length ? ` · ${t("page")} ${cursors.length + 1}` : ""}`), ...items, pager);
    } catch (error) {
      out.replaceChildren(failure(error));
    }
  };
  mount(
    gen,
    el("h1", {}, t("memories")),
    el("form", { class: "card", role: "search", onsubmit: run },
      el("div", { class: "row" }, field(t("query"), query), field(t("mode"), mode), field(t("namespace"), namespace), field(t("type"), type)),
      el("div", { class: "row" }, field(t("tags"), tags), field(t("status"), status), field(t("since"), since), field(t("until"), until)),
      el("p", { class: "actions" }, el("label", { class: "check" }, explain, t("explain")), el("button", { class: "primary", type: "submit" }, t("find")))),
    out,
  );
  await run();
}

// -- access: users, agents, keys, workspaces ----------------------------------------------------------

function formCard(title, inputs, submit, label) {
  const message = el("p", { role: "status" });
  return el("form", { class: "card", "aria-label": title, onsubmit: async (event) => {
      event.preventDefault();
      try {
        const shown = await submit();
        message.replaceChildren(shown || t("saved"));
      } catch (error) {
        message.replaceChildren(failure(error));
      }
    } },
    el("h2", {}, title), el("div", { class: "row" }, ...inputs.map(([name, input]) => field(name, input))),
    el("p", {}, el("button", { class: "primary", type: "submit" }, label || t("create"))), message);
}

async function access(gen) {
  const admin = state.me.is_admin;
  const [keys, agents, workspaces, users] = await Promise.all([
    api("GET", "/v1/keys"), api("GET", "/v1/agents"), api("GET", "/v1/workspaces"), admin ? api("GET", "/v1/users?limit=100") : null,
  ]);
  const me = state.me.user_id;
  const sections = [];
  if (admin) {
    const userId = el("input", { name: "user_id", required: true });
    const display = el("input", { name: "display_name" });
    sections.push(
      formCard(t("newUser"), [[t("id"), userId], [t("displayName"), display]], async () => {
        await api("POST", "/v1/users", { user_id: userId.value, display_name: display.value });
        route();
      }),
      el("h2", {}, t("users")),
      table([t("id"), t("displayName"), t("status")], users.items.map((u) => el("tr", {}, el("td", {}, u.id), el("td", {}, u.display_name), el("td", {}, u.status)))),
    );
  }
  const agentId = el("input", { name: "agent_id", required: true });
  const agentName = el("input", { name: "name" });
  const framework = el("input", { name: "framework", placeholder: "hermes, openclaw, nanobot …" });
  const agentOwner = el("input", { name: "owner_user_id", value: admin ? "" : me, readonly: admin ? null : true });
  sections.push(
    formCard(t("newAgent"), [[t("id"), agentId], [t("name"), agentName], [t("framework"), framework], [t("owner"), agentOwner]], async () => {
      await api("POST", "/v1/agents", { agent_id: agentId.value, name: agentName.value || agentId.value, framework: framework.value, owner_user_id: agentOwner.value || null });
      route();
    }),
    el("h2", {}, t("agents")),
    table([t("id"), t("name"), t("owner")], agents.map((a) => el("tr", {}, el("td", {}, a.id), el("td", {}, a.name || ""), el("td", {}, a.owner_user_id)))),
  );
  const keyUser = el("input", { name: "user_id", value: admin ? "" : me, readonly: admin ? null : true });
  const keyAgent = el("select", { name: "agent_id" }, el("option", { value: "" }, t("noAgent")), agents.map((a) => el("option", { value: a.id }, a.id)));
  const keyLabel = el("input", { name: "label" });
  sections.push(
    formCard(t("newKey"), [[t("user"), keyUser], [t("agent"), keyAgent], [t("label"), keyLabel]], async () => {
      const made = await api("POST", "/v1/keys", { user_id: keyUser.value || me, agent_id: keyAgent.value || null, label: keyLabel.value });
      return el("div", { class: "secret" }, el("p", {}, t("keyOnce")), el("code", { "data-testid": "new-key" }, made.api_key));
    }),
    el("h2", {}, t("keys")),
    table([t("id"), t("user"), t("agent"), t("label"), t("lastUsed"), ""], keys.map((k) => el("tr", { dataset: { key: k.id } },
      el("td", {}, k.id), el("td", {}, k.user_id), el("td", {}, k.agent_id || ""), el("td", {}, k.label || ""), el("td", {}, when(k.last_used_at)),
      el("td", {}, k.revoked_at ? el("span", { class: "badge" }, t("revoked")) : el("button", { type: "button", class: "danger", onclick: async () => {
        if (!confirm(t("confirmRevoke"))) return;
        await api("DELETE", `/v1/keys/${encodeURIComponent(k.id)}`);
        route();
      } }, t("revoke")))))),
  );
  const wsId = el("input", { name: "workspace_id", required: true });
  const wsName = el("input", { name: "name" });
  sections.push(
    formCard(t("newWorkspace"), [[t("id"), wsId], [t("name"), wsName]], async () => {
      await api("POST", "/v1/workspaces", { workspace_id: wsId.value, name: wsName.value || wsId.value });
      route();
    }),
    el("h2", {}, t("workspaces")),
    ...workspaces.map((w) => workspaceCard(w, me)),
  );
  mount(gen, el("h1", {}, t("access")), ...sections);
}

function workspaceCard(w, me) {
  const invited = w.invited_user_ids || [];
  const message = el("p", { role: "status" });
  const invitee = el("input", { name: "invitee", required: true });
  const mayInvite = w.owner_user_id === me || state.me.is_admin;
  return el("section", { class: "card", dataset: { workspace: w.id } },
    el("h3", {}, `${w.name || w.id} (${w.id})`),
    el("p", {}, `${t("owner")}: ${w.owner_user_id} · ${t("members")}: ${(w.member_user_ids || []).join(", ")}`),
    invited.length ? el("p", { class: "muted" }, `${t("invited")}: ${invited.join(", ")}`) : "",
    invited.includes(me)
      ? el("button", { type: "button", class: "primary", onclick: async () => {
          try { await api("POST", `/v1/workspaces/${encodeURIComponent(w.id)}/join`); route(); } catch (error) { message.replaceChildren(failure(error)); }
        } }, t("accept"))
      : "",
    mayInvite
      ? el("form", { class: "row", "aria-label": `${t("invite")} ${w.id}`, onsubmit: async (event) => {
          event.preventDefault();
          try { await api("PUT", `/v1/workspaces/${encodeURIComponent(w.id)}/members/${encodeURIComponent(invitee.value)}`); route(); } catch (error) { message.replaceChildren(failure(error)); }
        } }, field(t("inviteWho"), invitee), el("button", { type: "submit" }, t("invite")))
      : "",
    message);
}

// -- activity -----------------------------------------------------------------------------------------

async function activity(gen) {
  const action = el("input", { name: "action" });
  const decision = el("select", { name: "decision" }, ["", "allow", "deny"].map((d) => el("option", { value: d }, d || t("any"))));
  const out = el("div");
  const load = async (event) => {
    event?.preventDefault();
    const params = new URLSearchParams({ limit: "100" });
    if (action.value) params.set("action", action.value);
    if (decision.value) params.set("decision", decision.value);
    const page = await api("GET", `/v1/audit?${params}`);
    out.replaceChildren(table([t("when"), t("actor"), t("action"), t("target"), t("decision"), t("reason")],
      page.items.map((r) => el("tr", {}, el("td", {}, when(r.created_at)), el("td", {}, [r.actor_user_id, r.actor_agent_id].filter(Boolean).join(" · ")), el("td", {}, r.action), el("td", {}, `${r.target_type} ${r.target_id || ""}`), el("td", {}, el("span", { class: `badge ${r.decision === "deny" ? "Failed" : ""}` }, r.decision)), el("td", {}, r.reason)))));
  };
  mount(
    gen,
    el("h1", {}, t("activity")),
    el("form", { class: "card", onsubmit: load }, el("div", { class: "row" }, field(t("action"), action), field(t("decision"), decision), el("button", { type: "submit" }, t("filter")))),
    out,
  );
  await load();
}

window.addEventListener("hashchange", route);
route();
