// Run against a live gateway: MEMGW_URL and MEMGW_API_KEY (a fresh user's key), MEMGW_OTHER_KEY
// (another user's). `node --test` in this folder; the repository's pytest suite runs it for CI.
import assert from "node:assert/strict";
import { test } from "node:test";

import plugin, { registerMemgw } from "./index.js";

function load(apiKey = process.env.MEMGW_API_KEY) {
  const tools = new Map();
  const hooks = new Map();
  const api = {
    pluginConfig: { url: process.env.MEMGW_URL, apiKey },
    registerTool: (tool) => tools.set(tool.name, tool),
    on: (name, handler) => hooks.set(name, handler),
    logger: { warn: () => {} },
  };
  plugin.register(api);
  return { tools, hooks };
}

const run = async (tool, params) => {
  const result = await tool.execute("call-1", params);
  const raw = result.content[0].text;
  let body;
  try {
    body = JSON.parse(raw);
  } catch {
    body = raw; // "No relevant memories found."
  }
  return { ...result, body };
};

test("the manifest's kind and the three tools", () => {
  const { tools, hooks } = load();
  assert.equal(plugin.kind, "memory");
  assert.deepEqual([...tools.keys()].sort(), ["memory_forget", "memory_search", "memory_store"]);
  for (const tool of tools.values()) {
    for (const [name, spec] of Object.entries(tool.parameters.properties)) assert.ok(spec.description, `${tool.name}.${name}`);
  }
  assert.ok(hooks.has("before_prompt_build"));
});

test("store, search, recall before a run, forget", async () => {
  const { tools, hooks } = load();
  const stored = await tools.get("memory_store").execute("c1", { text: "The user's cat is called Miso.", category: "fact" });
  const id = stored.details.id;
  assert.match(id, /^mem_/);
  const found = await run(tools.get("memory_search"), { query: "what is the cat called" });
  assert.equal(found.body.results[0].id, id);
  const recall = await hooks.get("before_prompt_build")({ prompt: "remind me of my cat's name" });
  assert.match(recall.prependContext, /Miso/);
  const forgot = await tools.get("memory_forget").execute("c2", { memoryId: id });
  assert.equal(forgot.isError, undefined);
  const again = await run(tools.get("memory_search"), { query: "what is the cat called" });
  assert.ok(!JSON.stringify(again.body).includes(id));
});

test("another key reaches nothing of this user's, and says why", async () => {
  const mine = load();
  const stored = await mine.tools.get("memory_store").execute("c1", { text: "Private: the safe code is kept offline." });
  const theirs = load(process.env.MEMGW_OTHER_KEY);
  const found = await run(theirs.tools.get("memory_search"), { query: "safe code" });
  assert.ok(!JSON.stringify(found.body).includes(stored.details.id));
  const refused = await theirs.tools.get("memory_forget").execute("c2", { memoryId: stored.details.id });
  assert.equal(refused.isError, true);
  assert.match(refused.content[0].text, /not_found/);
});

test("a missing key is a clear error at load", () => {
  const api = { pluginConfig: { url: "http://127.0.0.1:1" }, registerTool() {} };
  assert.throws(() => registerMemgw(api, {}), /apiKey/);
});
