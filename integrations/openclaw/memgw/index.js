// Memory Gateway as OpenClaw's memory plugin (slot "memory").
//
// Tools: memory_search, memory_store, memory_forget (declared in the manifest's contracts.tools, as
// OpenClaw asks before a plugin registers tools). With autoRecall (the default) the user's request is
// searched before each prompt is built and what is found is given to the model as context. The gateway's API
// key decides whose memory this is: nothing here names a user, so an agent cannot reach further.

const text = (value) => ({ content: [{ type: "text", text: typeof value === "string" ? value : JSON.stringify(value) }] });

export class GatewayError extends Error {
  constructor(status, code, detail) {
    super(`${status} ${code}: ${detail}`);
    this.status = status;
    this.code = code;
    this.detail = detail;
  }
}

export function createClient({ url, apiKey, fetchImpl = globalThis.fetch }) {
  if (!url || !apiKey) throw new Error("memgw: set plugins.entries.memgw.config.url and apiKey (or MEMGW_URL, MEMGW_API_KEY)");
  const base = url.replace(/\/+$/, "");
  async function call(method, path, body) {
    const response = await fetchImpl(base + path, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const raw = await response.text();
    const data = raw ? JSON.parse(raw) : null;
    if (!response.ok) throw new GatewayError(response.status, data?.error ?? "error", data?.detail ?? raw);
    return data;
  }
  return {
    search: (query, limit = 5) => call("POST", "/v1/memory/search", { query, limit }).then((r) => r.results),
    store: (content, memoryType = "fact") => call("POST", "/v1/memory", { content, memory_type: memoryType }),
    forget: (memoryId) => call("DELETE", `/v1/memory/${encodeURIComponent(memoryId)}`),
  };
}

const MEMORY_TYPES = ["fact", "preference", "decision", "experience", "failure", "note"];

export function registerMemgw(api, env = process.env) {
  const config = api.pluginConfig ?? {};
  const client = createClient({ url: config.url ?? env.MEMGW_URL, apiKey: config.apiKey ?? env.MEMGW_API_KEY });
  const recallLimit = config.recallLimit ?? 5;

  async function guarded(work) {
    try {
      return await work();
    } catch (error) {
      const message = error instanceof GatewayError ? `${error.code}: ${error.detail}` : String(error?.message ?? error);
      return { ...text({ error: message }), isError: true };
    }
  }

  api.registerTool({
    name: "memory_search",
    label: "Memory search",
    description: "Search the user's long-term memory (facts, preferences, decisions) by meaning and keywords, in any language.",
    parameters: {
      type: "object",
      additionalProperties: false,
      properties: {
        query: { type: "string", minLength: 1, maxLength: 2000, description: "What to look for." },
        limit: { type: "integer", minimum: 1, maximum: 20, description: "How many memories (default 5)." },
      },
      required: ["query"],
    },
    async execute(_toolCallId, params) {
      return guarded(async () => {
        const hits = await client.search(params.query, params.limit ?? recallLimit);
        const results = hits.map((h) => ({ id: h.memory.id, memory: h.memory.content, type: h.memory.memory_type, score: h.score }));
        return { ...text(results.length ? { results } : "No relevant memories found."), details: { count: results.length } };
      });
    },
  });

  api.registerTool({
    name: "memory_store",
    label: "Memory store",
    description: "Store one durable fact, preference or decision about the user or the work.",
    parameters: {
      type: "object",
      additionalProperties: false,
      properties: {
        text: { type: "string", minLength: 1, maxLength: 32000, description: "One self-contained statement." },
        category: { type: "string", enum: MEMORY_TYPES, description: "What kind of memory it is (default fact)." },
      },
      required: ["text"],
    },
    async execute(_toolCallId, params) {
      return guarded(async () => {
        const made = await client.store(params.text, params.category ?? "fact");
        return { ...text(`Stored (${made.id}).`), details: made };
      });
    },
  });

  api.registerTool({
    name: "memory_forget",
    label: "Memory forget",
    description: "Delete a memory that is wrong or no longer wanted; its id comes from memory_search.",
    parameters: {
      type: "object",
      additionalProperties: false,
      properties: { memoryId: { type: "string", minLength: 1, maxLength: 128, description: "The memory's id." } },
      required: ["memoryId"],
    },
    async execute(_toolCallId, params) {
      return guarded(async () => {
        await client.forget(params.memoryId);
        return { ...text(`Forgot ${params.memoryId}.`), details: { id: params.memoryId } };
      });
    },
  });

  // Recall before the prompt is built: the user's request (not the reconstructed history, when the host
  // tells them apart) is searched, and what is found goes in as context. OpenClaw runs this hook for a
  // non-bundled plugin only with plugins.entries.memgw.hooks.allowConversationAccess = true.
  if (config.autoRecall !== false && typeof api.on === "function") {
    api.on("before_prompt_build", async (event) => {
      const asked = typeof event?.currentUserMessage === "string" ? event.currentUserMessage : event?.prompt;
      const prompt = typeof asked === "string" ? asked.trim() : "";
      if (!prompt) return undefined;
      try {
        const hits = await client.search(prompt.slice(0, 2000), recallLimit);
        if (!hits.length) return undefined;
        const lines = hits.map((h) => `- ${h.memory.content}`).join("\n");
        return { prependContext: `<relevant-memories>\n${lines}\n</relevant-memories>` };
      } catch (error) {
        api.logger?.warn?.(`memgw: recall failed: ${error?.message ?? error}`);
        return undefined;
      }
    });
  }
}

export default {
  id: "memgw",
  name: "Memory (Memory Gateway)",
  description: "Shared, isolated long-term memory from a Memory Gateway.",
  kind: "memory",
  register: (api) => registerMemgw(api),
};
