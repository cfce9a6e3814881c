#!/usr/bin/env node
// Usage: node make-cases.mjs OUTDIR
// Run from a directory holding pi 1.5.2's SessionManager in node_modules
// (shared/reference/pi-1.5/setup.sh); then `node dump.mjs` each file for its
// expected document. Writes, through pi's own SessionManager, the pi 1.5
// sessions of testdata/corpus that make-session.mjs does not cover:
//   pi15-sdk-roots-edits.jsonl    three roots (resetLeaf, branchWithSummary(null)),
//                                 a context edit edited twice more (replace, omit,
//                                 replace again), an edited custom message, a
//                                 string replacement of an assistant turn, an
//                                 openai turn whose responseModel equals its model
//   pi15-sdk-edit-left-behind.jsonl  an edit on one branch, and the leaf on a branch
//                                 taken before it (the target is seen whole again);
//                                 a retain-none compaction, then a later compaction
//                                 whose kept range holds the first one and a system
//                                 message; system messages after the compaction;
//                                 a fork's parentSession in the header
//   pi15-sdk-no-prompt.jsonl      no system message at all (a session begun before
//                                 pi 1.5): a compaction without a checkpoint, a
//                                 deferred answer, an aborted one, usage of equal
//                                 cost under two models
import { SessionManager } from "./node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js";
import { mkdtempSync, readdirSync, copyFileSync } from "node:fs";
import { join } from "node:path";

const outDir = process.argv[2];
if (!outDir) {
  console.error("usage: node make-cases.mjs OUTDIR");
  process.exit(2);
}
const U = (i, o, c, w = 0) => ({ input: i, output: o, cacheRead: c, cacheWrite: w, totalTokens: i + o + c + w,
  cost: { input: i * 3e-6, output: o * 15e-6, cacheRead: c * 3e-7, cacheWrite: w * 3.75e-6, total: i * 3e-6 + o * 15e-6 + c * 3e-7 + w * 3.75e-6 } });
let t = 1767254400000;
const ts = () => (t += 5000);
const user = (sm, text) => sm.appendMessage({ role: "user", content: text, timestamp: ts() });
const assistant = (sm, text, usage, extra = {}) => sm.appendMessage({ role: "assistant", content: [{ type: "text", text }],
  api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5", usage, stopReason: "stop", timestamp: ts(), ...extra });
const system = (sm, sections, extra = {}) => sm.appendMessage({ role: "system", content: "", sections, timestamp: ts(), ...extra });
// Entries written within one millisecond would tie on timestamps, and
// siblings are ordered by them: wait a little between branches.
const tick = () => { const end = Date.now() + 3; while (Date.now() < end) {} };

function save(sm, dir, name) {
  const f = readdirSync(dir).find((n) => n.endsWith(".jsonl"));
  copyFileSync(join(dir, f), join(outDir, name));
  console.log(join(outDir, name));
}

{ // several roots, edits of edits
  const dir = mkdtempSync("/tmp/s152-");
  const sm = SessionManager.create("/home/dev/webapp", dir);
  system(sm, { preamble: "You are a careful assistant. ROOTS-PREAMBLE", env: "<env>linux</env>" },
    { toolsAdded: [{ name: "read", description: "Read a file", parameters: { type: "object" } }, { name: "grep", description: "Search files", parameters: {} }] });
  const u1 = user(sm, "First question. ROOT-ONE");
  assistant(sm, "First answer. ROOT-ONE-ANSWER", U(100, 10, 0));
  tick();
  sm.resetLeaf();
  const u2 = user(sm, "Start over. ROOT-TWO");
  const a2 = assistant(sm, "Second answer. ROOT-TWO-ANSWER", U(200, 20, 0));
  const c1 = sm.appendCustomMessageEntry("reminder", "Remember the tests. CUSTOM-ROOT-TWO", true);
  sm.appendContextEdit(u2, { content: "Start over (edit 1). EDIT-ONE" });
  sm.appendContextEdit(u2, null);
  sm.appendContextEdit(a2, { content: "Second answer, shortened. EDIT-ASSISTANT-STRING" });
  sm.appendContextEdit(c1, { content: [{ type: "text", text: "Remember the tests (edited). EDIT-CUSTOM" }] });
  sm.appendContextEdit(u2, { content: [{ type: "text", text: "Start over (edit 3). EDIT-THREE" }] });
  sm.appendMessage({ role: "assistant", content: [{ type: "text", text: "Answer from another provider. OPENAI" }],
    api: "openai-responses", provider: "openai", model: "gpt-5", responseModel: "gpt-5", thinkingLevel: "high",
    usage: U(300, 30, 100), stopReason: "stop", timestamp: ts() });
  tick();
  sm.branchWithSummary(null, "Summary of everything before. ROOT-THREE-SUMMARY", undefined, false, U(50, 5, 0));
  user(sm, "Third start. ROOT-THREE");
  assistant(sm, "Third answer. ROOT-THREE-ANSWER", U(400, 40, 0));
  save(sm, dir, "pi15-sdk-roots-edits.jsonl");
}

{ // a branch that leaves an edit behind; compactions inside compactions
  const dir = mkdtempSync("/tmp/s152-");
  const sm = SessionManager.create("/home/dev/webapp", dir);
  sm.newSession({ parentSession: "/home/dev/.pi/agent/sessions/--home-dev-webapp--/2026-11-20T10-00-00-000Z_parent.jsonl" });
  system(sm, { preamble: "Prompt. LEFT-PREAMBLE", tools: "<tools>read</tools>" },
    { toolsAdded: [{ name: "read", description: "Read a file", parameters: {} }] });
  const u1 = user(sm, "Look at main.go. LEFT-USER-ONE");
  const a1 = sm.appendMessage({ role: "assistant", content: [{ type: "toolCall", id: "call_a", name: "read", arguments: { path: "main.go" } }],
    api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5", usage: U(100, 10, 0), stopReason: "toolUse", timestamp: ts() });
  const r1 = sm.appendMessage({ role: "toolResult", toolCallId: "call_a", toolName: "read", content: [{ type: "text", text: "package main\n" }], isError: false, timestamp: ts() });
  const a2 = assistant(sm, "It is empty. LEFT-ANSWER", U(150, 15, 0));
  tick();
  sm.appendContextEdit(r1, { content: "[file elided] EDIT-ON-ABANDONED-BRANCH" });
  user(sm, "Carry on. LEFT-ABANDONED");
  assistant(sm, "Carrying on. LEFT-ABANDONED-ANSWER", U(10, 1, 0));
  tick();
  sm.branch(a2); // the branch leaves the edit behind
  sm.appendCompaction("Nothing kept. RETAIN-NONE", undefined, 500, undefined, false, U(20, 2, 0));
  const u3 = user(sm, "Next step. LEFT-USER-THREE");
  system(sm, { tools: null, skills: "<skills>go</skills>" }, { toolsAdded: [{ name: "edit", description: "Edit a file", parameters: {} }], toolsRemoved: [{ name: "read" }] });
  const a3 = assistant(sm, "Done. LEFT-ANSWER-THREE", U(200, 20, 300));
  sm.appendCompaction("Second summary. SECOND-COMPACTION", u1, 2000, undefined, false, U(30, 3, 0));
  system(sm, { env: "<env>after compaction</env>" });
  sm.appendContextEdit(a3, null);
  user(sm, "Final. LEFT-FINAL");
  assistant(sm, "Final answer. LEFT-FINAL-ANSWER", U(250, 25, 400));
  save(sm, dir, "pi15-sdk-edit-left-behind.jsonl");
}

{ // no system message: a session begun before pi 1.5
  const dir = mkdtempSync("/tmp/s152-");
  const sm = SessionManager.create("/home/dev/webapp", dir);
  sm.appendModelChange("anthropic", "claude-sonnet-4-5");
  const u1 = user(sm, "Old-style session. NOPROMPT-ONE");
  assistant(sm, "Old-style answer. NOPROMPT-ANSWER", U(1000, 100, 0));
  sm.appendUsage("cache_warm", "anthropic", "claude-haiku-4-5", U(0, 0, 10000), "warming");
  sm.appendUsage("title", "openai", "gpt-5-mini", U(3000, 0, 0));
  sm.appendMessage({ role: "assistant", content: [], api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5",
    usage: U(0, 0, 0), stopReason: "deferred", deferred: { provider: "anthropic", modelId: "claude-sonnet-4-5", api: "anthropic-messages", id: "msgbatch_01", expiresAt: 1767300000000 }, timestamp: ts() });
  sm.appendMessage({ role: "assistant", content: [{ type: "text", text: "Partial" }], api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5",
    usage: U(10, 1, 0), stopReason: "aborted", errorMessage: "Request was aborted", timestamp: ts() });
  sm.appendCompaction("Summary without a prompt. NOPROMPT-COMPACTION", u1, 800, undefined, true);
  user(sm, "After. NOPROMPT-AFTER");
  assistant(sm, "After answer. NOPROMPT-AFTER-ANSWER", U(500, 50, 0));
  save(sm, dir, "pi15-sdk-no-prompt.jsonl");
}
