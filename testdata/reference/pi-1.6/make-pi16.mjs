#!/usr/bin/env node
// Usage: node make-pi16.mjs OUT.jsonl   (run ./setup.sh once first)
// Writes a session in pi 1.6.0's format through pi 1.6.0's own
// SessionManager, with what 1.6 shows differently (SCHEMA-1.6.md):
//   - tool output with OSC 8 hyperlinks (BEL and ST terminated, http, https,
//     mailto, and javascript:, file: and data: targets that must not become
//     links), an OSC 0 title and an OSC 52 clipboard write, in a bash result
//     and in a custom tool's result;
//   - assistant diagnostics: OpenAI reasoning items removed
//     (openai_input_transformations), Anthropic thinking dropped
//     (anthropic_input_transformations), and two of other types
//     (anthropic_thread_fallback with an error, bedrock_response_failure);
//   - a batch of tool calls stopped with Esc: the calls that never started
//     get pi 1.6's "Operation aborted" result, next to a call that really
//     failed;
//   - an extension's custom entry.
// The messages follow message-types.md of the 1.6.0 package; the
// diagnostics the shapes its providers write (dist/bundle/chunks:
// appendAssistantMessageDiagnostic). The conversation is made up.
import { SessionManager } from "./node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js";
import { mkdtempSync, readdirSync, copyFileSync } from "node:fs";
import { join } from "node:path";

const out = process.argv[2];
if (!out) {
  console.error("usage: node make-pi16.mjs OUT.jsonl");
  process.exit(2);
}
const dir = mkdtempSync("/tmp/s160-");
const sm = SessionManager.create("/home/dev/docsite", dir);
const U = (i, o, c, price = [3e-6, 15e-6, 3e-7]) => ({ input: i, output: o, cacheRead: c, cacheWrite: 0, totalTokens: i + o + c,
  cost: { input: i * price[0], output: o * price[1], cacheRead: c * price[2], cacheWrite: 0, total: i * price[0] + o * price[1] + c * price[2] } });
const GPT = [1.25e-6, 10e-6, 1.25e-7];
let t = Date.parse("2026-11-22T10:00:00.000Z");
const ts = () => (t += 5000);
const ESC = "\x1b", BEL = "\x07", ST = "\x1b\\";
const link = (url, text, end = ST) => `${ESC}]8;;${url}${end}${text}${ESC}]8;;${end}`;
const gpt = (content, extra = {}) => ({ role: "assistant", content, api: "openai-responses", provider: "openai",
  model: "gpt-6.2-sol", usage: U(4000, 300, 12000, GPT), stopReason: "toolUse", timestamp: ts(), ...extra });
const claude = (content, extra = {}) => ({ role: "assistant", content, api: "anthropic-messages", provider: "anthropic",
  model: "claude-sonnet-4-5", usage: U(5000, 400, 20000), stopReason: "stop", timestamp: ts(), ...extra });
const result = (toolCallId, toolName, text, isError = false) => ({ role: "toolResult", toolCallId, toolName,
  content: [{ type: "text", text }], details: {}, isError, timestamp: ts() });

sm.appendModelChange("openai", "gpt-6.2-sol");
sm.appendThinkingLevelChange("high");
sm.appendMessage({ role: "system", content: "", sections: { preamble: "You are an expert coding assistant. SYS-PREAMBLE-160" },
  toolsAdded: [{ name: "bash", description: "Run a command", parameters: {} }, { name: "edit", description: "Edit a file", parameters: {} },
    { name: "docs_search", description: "Search the documentation site", parameters: {} }], timestamp: ts() });
sm.appendMessage({ role: "user", content: "List the docs with links, then fix the broken build. USER-ONE-160", timestamp: ts() });

// OpenAI removed two reasoning items from the request; the answer calls
// four tools, and the user presses Esc while the second runs: the last two
// never start.
sm.appendMessage(gpt([
  { type: "thinking", thinking: "List the docs first, then look at the build. THINK-160" },
  { type: "toolCall", id: "call_ls", name: "bash", arguments: { command: "ls --hyperlink=always docs" } },
  { type: "toolCall", id: "call_docs", name: "docs_search", arguments: { query: "build" } },
  { type: "toolCall", id: "call_edit", name: "edit", arguments: { path: "Makefile", oldText: "go test", newText: "go test ./..." } },
  { type: "toolCall", id: "call_make", name: "bash", arguments: { command: "make" } },
], { responseModel: "gpt-6.2-sol-2026-11-01", thinkingLevel: "high", diagnostics: [
  { type: "openai_input_transformations", timestamp: t, details: { transformations: [
    { type: "reasoning", id: "rs_0a1b2c", action: "removed", reason: "prefix_mismatch" },
    { type: "reasoning", id: "rs_3d4e5f", action: "removed", reason: "prefix_mismatch" },
  ] } },
] }));
sm.appendMessage(result("call_ls", "bash",
  `${ESC}]0;docs — ls${BEL}${ESC}[1;34m` + link("file:///home/dev/docsite/docs/guide.md", "guide.md") + `${ESC}[0m  ` +
  link("https://docs.example.com/api?v=2&lang=en", "api.md", BEL) + "  " +
  link("mailto:docs@example.com", "contact", ST) + "  " +
  link("javascript:alert(document.domain)", "LINK-JS-160") + "  " +
  link("data:text/html,<script>alert(1)</script>", "LINK-DATA-160", BEL) +
  `${ESC}]52;c;cm0gLXJmIH4vZG9jcwo=${BEL}\nOSC-DONE-160\n`));
sm.appendMessage(result("call_docs", "docs_search",
  "2 pages match \"build\":\n" + link("https://docs.example.com/build", "Building the site") + " (updated today)\n" +
  link("https://docs.example.com/ci", "CI setup", BEL) + `${ESC}]2;docs_search${ST}\n`));
sm.appendMessage(result("call_edit", "edit", "Operation aborted", true));
sm.appendMessage(result("call_make", "bash", "Operation aborted", true));

sm.appendCustomEntry("docs-index", { pages: 42, builtAt: "2026-11-22T09:58:00Z" });
sm.appendMessage({ role: "user", content: "Go on, but only with the Makefile. USER-TWO-160", timestamp: ts() });
sm.appendModelChange("anthropic", "claude-sonnet-4-5");
sm.appendMessage(claude([
  { type: "thinking", thinking: "The edit never ran. Run it again, then make. THINK-TWO-160" },
  { type: "toolCall", id: "toolu_edit", name: "edit", arguments: { path: "Makefile", oldText: "go tset", newText: "go test ./..." } },
], { stopReason: "toolUse", diagnostics: [
  { type: "anthropic_input_transformations", timestamp: t, details: { transformations: [
    { type: "thinking_dropped", path: "messages.2.content.0", reason: "signature_mismatch" },
  ] } },
  { type: "anthropic_thread_fallback", timestamp: t, error: { message: "thread not found" }, details: { reason: "not_found_error" } },
] }));
sm.appendMessage(result("toolu_edit", "edit", "Could not find the exact text in Makefile. The old text must match exactly.", true));
sm.appendMessage(claude([{ type: "text", text: "The Makefile no longer says `go tset`: the build is fixed. ASSIST-TWO-160" }], {
  diagnostics: [{ type: "bedrock_response_failure", timestamp: t, details: { status: 503, attempt: 1 } }] }));

const f = readdirSync(dir).find((n) => n.endsWith(".jsonl"));
copyFileSync(join(dir, f), out);
console.log(out);
