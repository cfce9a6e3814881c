#!/usr/bin/env node
// Usage: node make-omp18.mjs OUTDIR
// Writes omp 18.3.4 session files the way omp's SessionManager lays them out
// (@oh-my-pi/pi-coding-agent 18.3.4: src/session/session-entries.ts for the
// entries, session-title-slot.ts for the title slot, task/executor.ts and
// export/html/index.ts for where sub-agent transcripts live). omp runs on
// Bun only, so these are written here by hand, entry by entry, to those
// types; the conversation text is made up.
//
//   omp18-task-subagents.jsonl             the title slot (a fixed 256-byte first
//     line), every omp 18 entry type, a task call that starts two sub-agents
//   omp18-task-subagents/Lexer.jsonl       a sub-agent: session_init, a read, and
//                                          a task call of its own
//   omp18-task-subagents/Lexer/Tokens.jsonl  the sub-agent's sub-agent
//   omp18-task-subagents/Parser.jsonl      a sub-agent that was aborted
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const outDir = process.argv[2];
if (!outDir) {
  console.error("usage: node make-omp18.mjs OUTDIR");
  process.exit(2);
}
let t = Date.parse("2026-11-21T09:00:00.000Z");
const iso = () => new Date((t += 4000)).toISOString();
let n = 0;
const id = () => (0x1000_0000 + ++n * 0x10101).toString(16).slice(-8);
const usage = (i, o, c) => ({ input: i, output: o, cacheRead: c, cacheWrite: 0, totalTokens: i + o + c,
  cost: { input: i * 5e-6, output: o * 25e-6, cacheRead: c * 5e-7, cacheWrite: 0, total: i * 5e-6 + o * 25e-6 + c * 5e-7 } });

// session-title-slot.ts serializeTitleSlot: the slot is exactly 256 UTF-8
// bytes including its newline, padded with spaces in "pad".
function titleSlot(title, source, updatedAt) {
  const line = (pad) => JSON.stringify({ type: "title", v: 1, title, source, updatedAt, pad }) + "\n";
  const padBytes = 256 - Buffer.byteLength(line(""));
  const out = line(" ".repeat(padBytes));
  if (Buffer.byteLength(out) !== 256) throw new Error("slot size");
  return out;
}

class Writer {
  constructor(header) { this.lines = []; this.leaf = null; this.header = header; }
  add(fields) {
    const e = { type: fields.type, id: id(), parentId: this.leaf, timestamp: iso(), ...fields };
    this.lines.push(JSON.stringify(e));
    this.leaf = e.id;
    return e.id;
  }
  message(message) { return this.add({ type: "message", message: { timestamp: t, ...message } }); }
  write(path, slot) {
    writeFileSync(path, (slot ?? "") + [JSON.stringify(this.header), ...this.lines].join("\n") + "\n");
    console.log(path);
  }
}
const assistant = (content, extra = {}) => ({ role: "assistant", content, api: "anthropic-messages", provider: "anthropic",
  model: "claude-opus-4-5", usage: usage(2000, 300, 8000), stopReason: "stop", ...extra });
const header = (sessionId, extra = {}) => ({ type: "session", version: 3, id: sessionId, timestamp: iso(), cwd: "/home/dev/parser", ...extra });

const main = join(outDir, "omp18-task-subagents.jsonl");
const subDir = join(outDir, "omp18-task-subagents");
mkdirSync(join(subDir, "Lexer"), { recursive: true });

{ // the main session
  const w = new Writer(header("019f0a00-0000-7000-8000-00000000a001", { title: "Split the parser", titleSource: "auto" }));
  w.add({ type: "model_change", model: "anthropic/claude-opus-4-5", role: "default" });
  w.add({ type: "thinking_level_change", thinkingLevel: "high", configured: "auto" });
  w.add({ type: "service_tier_change", serviceTier: { anthropic: "priority", openai: "flex" } });
  w.add({ type: "mode_change", mode: "plan", data: { planFilePath: "/home/dev/parser/.omp/plan.md" } });
  w.message({ role: "user", content: [{ type: "text", text: "Split the parser into a lexer and a parser. Use sub-agents. OMP-USER-ONE" }] });
  w.add({ type: "ttsr_injection", injectedRules: ["no-any", "prefer-const"] });
  w.message(assistant([
    { type: "thinking", thinking: "Two independent pieces of work: explore both in parallel." },
    { type: "toolCall", id: "toolu_task1", name: "task", arguments: { agent: "explore", tasks: [
      { id: "Lexer", description: "Map the lexer", assignment: "Find every token type in src/lexer.ts." },
      { id: "Parser", description: "Map the parser", assignment: "List the grammar rules in src/parser.ts." }] } }]));
  w.add({ type: "model_usage", purpose: "title", role: "tiny", api: "anthropic-messages", provider: "anthropic",
    model: "claude-haiku-4-5", usage: usage(400, 12, 0), stopReason: "stop" });
  w.add({ type: "title_change", title: "Refactor the parser", previousTitle: "Split the parser", source: "user", trigger: "rename" });
  w.add({ type: "credential_pin", provider: "anthropic", hash: "9b1f4c2e7a0d3b6c8e5f1a2d4c6b8e0f2a4c6e8b0d2f4a6c8e0b2d4f6a8c0e2b" });
  w.message({ role: "toolResult", toolCallId: "toolu_task1", toolName: "task", isError: false,
    content: [{ type: "text", text: "2 agents finished: 1 succeeded, 1 aborted." }],
    details: { totalDurationMs: 41000, usage: usage(9000, 900, 20000), results: [
      { id: "Lexer", index: 0, description: "Map the lexer", exitCode: 0, tokens: 12400, requests: 3, durationMs: 23000,
        resolvedModel: "anthropic/claude-haiku-4-5", output: "Token types: IDENT, NUMBER, STRING, PUNCT." },
      { id: "Parser", index: 1, description: "Map the parser", exitCode: 1, aborted: true, abortReason: "Cancelled by the user",
        tokens: 3100, requests: 1, durationMs: 18000 }] } });
  w.message(assistant([{ type: "text", text: "The lexer has four token types; the parser run was cancelled. OMP-ANSWER-ONE" }]));
  w.add({ type: "mode_change", mode: "none" });
  w.add({ type: "service_tier_change", serviceTier: null });
  w.add({ type: "reset_boundary" });
  w.message({ role: "user", content: [{ type: "text", text: "Start afresh: write the lexer. OMP-USER-TWO" }] });
  w.message(assistant([{ type: "text", text: "Writing src/lexer.ts. OMP-ANSWER-TWO" }], { stopReason: "error", errorMessage: "overloaded_error: Overloaded" }));
  w.write(main, titleSlot("Refactor the parser", "user", new Date(t).toISOString()));
}

{ // Lexer: a sub-agent with a sub-agent of its own
  const w = new Writer(header("019f0a00-0000-7000-8000-00000000b001", { parentSession: main }));
  w.add({ type: "session_init", systemPrompt: "You are the explore agent.\n\n## Rules\n\n- Read, never write.\n- Answer with facts only.",
    task: "Find every token type in src/lexer.ts.", tools: ["read", "grep", "find", "task"], agent: "explore",
    modelRole: "smol", resolvedModel: "anthropic/claude-haiku-4-5", readOnly: true });
  w.add({ type: "model_change", model: "anthropic/claude-haiku-4-5", role: "default" });
  w.message({ role: "user", content: [{ type: "text", text: "Find every token type in src/lexer.ts. LEXER-TASK" }] });
  w.message({ ...assistant([{ type: "toolCall", id: "toolu_read1", name: "read", arguments: { path: "/home/dev/parser/src/lexer.ts" } }]), model: "claude-haiku-4-5" });
  w.message({ role: "toolResult", toolCallId: "toolu_read1", toolName: "read", isError: false,
    content: [{ type: "text", text: "export type Token = Ident | Num | Str | Punct;\n" }] });
  w.message({ ...assistant([{ type: "toolCall", id: "toolu_task2", name: "task", arguments: { agent: "explore", tasks: [
    { id: "Tokens", description: "Check token tests", assignment: "Are all four token types tested?" }] } }]), model: "claude-haiku-4-5" });
  w.message({ role: "toolResult", toolCallId: "toolu_task2", toolName: "task", isError: false,
    content: [{ type: "text", text: "1 agent finished." }],
    details: { results: [{ id: "Tokens", exitCode: 0, description: "Check token tests", durationMs: 6000, output: "All four are tested." }] } });
  w.message({ ...assistant([{ type: "text", text: "Token types: IDENT, NUMBER, STRING, PUNCT. LEXER-ANSWER" }]), model: "claude-haiku-4-5" });
  w.write(join(subDir, "Lexer.jsonl"));
}

{ // Lexer's own sub-agent
  const w = new Writer(header("019f0a00-0000-7000-8000-00000000c001", { parentSession: join(subDir, "Lexer.jsonl") }));
  w.add({ type: "session_init", systemPrompt: "You are the explore agent.", task: "Are all four token types tested?",
    tools: ["read", "grep"], agent: "explore", readOnly: true });
  w.message({ role: "user", content: [{ type: "text", text: "Are all four token types tested? TOKENS-TASK" }] });
  w.message({ ...assistant([{ type: "text", text: "All four are tested. TOKENS-ANSWER" }]), model: "claude-haiku-4-5" });
  w.write(join(subDir, "Lexer", "Tokens.jsonl"));
}

{ // Parser: aborted
  const w = new Writer(header("019f0a00-0000-7000-8000-00000000d001", { parentSession: main }));
  w.add({ type: "session_init", systemPrompt: "You are the explore agent.", task: "List the grammar rules in src/parser.ts.",
    tools: ["read", "grep"], agent: "explore", readOnly: true,
    outputSchema: { type: "object", properties: { rules: { type: "array", items: { type: "string" } } } } });
  w.message({ role: "user", content: [{ type: "text", text: "List the grammar rules in src/parser.ts. PARSER-TASK" }] });
  w.message({ ...assistant([{ type: "text", text: "Reading" }]), model: "claude-haiku-4-5", stopReason: "aborted" });
  w.write(join(subDir, "Parser.jsonl"));
}
