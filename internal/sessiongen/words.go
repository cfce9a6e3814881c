package sessiongen

import "strings"

// Word lists. They are long enough that generated prose does not repeat in
// short windows, so a compressor sees roughly the redundancy of real English
// and code rather than a few dozen tokens on a loop.

var nouns = strings.Fields(`
request response handler router middleware server client session token cache
index table column row query schema migration transaction connection pool
worker queue job scheduler timer deadline context channel buffer stream reader
writer parser lexer token grammar node tree branch leaf edge graph vertex path
file directory module package import export build test benchmark fixture mock
config option flag setting default value key field struct type interface method
function closure callback promise future task thread lock mutex semaphore
counter metric gauge histogram log trace span event message payload header body
cookie user account role permission policy secret credential certificate
endpoint route controller view template component layout page form input button
modal dialog menu sidebar footer navbar theme style selector element attribute
renderer encoder decoder serializer marshaller codec format protocol socket
listener dialer proxy gateway balancer replica shard partition segment offset
snapshot checkpoint backup restore rollback release deploy pipeline artifact
container image volume cluster namespace service pod manifest chart registry
dependency version tag commit diff patch merge rebase conflict hunk line
error warning failure panic exception stack frame retry backoff timeout limit
quota budget estimate threshold window batch chunk page cursor iterator slice
array map set list heap stack vector matrix tensor embedding model prompt
summary report chart dashboard widget filter sort search result score ranking
invoice customer order product cart payment refund subscription plan tier
document note record entry archive bundle asset font icon sprite script
`)

var verbs = strings.Fields(`
add remove rename refactor extract inline split merge move update fix patch
check validate parse render encode decode load save store fetch send receive
handle wrap unwrap close open flush sync lock unlock retry cancel skip ignore
log trace measure profile benchmark test mock stub replace rewrite simplify
reorder group sort filter dedupe cache invalidate warm reset clear drop create
build compile link bundle ship deploy migrate seed index scan walk visit
collect gather compute resolve normalize escape sanitize truncate pad trim
format print emit stream buffer batch paginate throttle debounce schedule
register unregister subscribe publish dispatch route serve listen dial accept
`)

var adjectives = strings.Fields(`
new old stale fresh empty nil missing extra duplicate broken flaky slow fast
large small nested flat sorted unsorted raw escaped cached lazy eager strict
loose optional required public private internal exported shared global local
remote pending active idle closed open partial complete invalid valid unused
deprecated legacy generic concrete async blocking concurrent sequential
atomic mutable immutable temporary persistent hidden visible default custom
`)

var adverbs = strings.Fields(`
now first then later again still already only just also instead together
quickly safely correctly silently explicitly implicitly eventually directly
`)

var connectives = []string{
	"because", "so that", "which means", "but", "and then", "while", "unless",
	"before", "after", "since", "although", "so", "otherwise", "whereas",
}

var openers = []string{
	"I'll", "Let me", "Now I'll", "Next, I'll", "First, let me", "I need to",
	"We should", "It looks like we", "The fix is to", "I think we can",
	"Before that, I'll", "To be safe, I'll", "Finally, I'll", "Then we",
}

var identWords = strings.Fields(`
user id name list map item items count total index key value data config opts
ctx req resp res err buf out src dst path dir file line col row node parent
child entry entries session token cache store repo client server handler conn
db tx rows query stmt args result results status code msg text body header
start end size len max min limit offset page cursor next prev first last
timeout retry attempts delay interval deadline ready done closed open state
mode kind type schema field fields tag tags label labels score rank weight
input output reader writer scanner parser lexer encoder decoder format
event events queue job jobs worker pool task tasks group owner account email
order invoice price amount currency product cart payment plan tier quota
`)

var langWords = strings.Fields(`
alpha beta gamma delta api web app core util lib cmd pkg internal server
client worker auth billing search index render export import sync store
`)

var dirNames = strings.Fields(`
src lib internal pkg cmd api server client web app components pages routes
handlers models services utils store db migrations tests test scripts docs
config core session export render tools ui hooks styles assets public
`)

var fileStems = strings.Fields(`
main server client handler router middleware auth session user users account
config settings options types models schema db store cache queue worker jobs
index app api routes utils helpers format parse render export import search
billing invoice payment order cart product metrics logging errors retry
`)

var branches = strings.Fields(`
main develop feat/export fix/parser refactor/session chore/deps release/1.4
`)

var domains = []string{
	"pkg.go.dev/net/http", "docs.python.org/3/library/asyncio.html",
	"developer.mozilla.org/en-US/docs/Web/API/Fetch_API",
	"doc.rust-lang.org/std/sync/struct.Mutex.html",
	"www.postgresql.org/docs/current/sql-select.html",
	"kubernetes.io/docs/concepts/workloads/pods/", "go.dev/blog/loopvar-preview",
	"typescriptlang.org/docs/handbook/2/generics.html",
	"github.com/golang/go/issues", "stackoverflow.com/questions",
	"www.sqlite.org/lang_createindex.html", "yaml.org/spec/1.2.2/",
	"docs.docker.com/compose/compose-file/", "nodejs.org/api/stream.html",
}

var userAsks = []string{
	"Can you %s the %s in `%s`?",
	"Please %s the %s so it works with the %s %s.",
	"The %s is %s again. Can you look at `%s`?",
	"Why does the %s fail when the %s is %s?",
	"Let's %s the %s handling in `%s` and add a test.",
	"I want to %s the %s. Start with `%s`.",
	"Could you %s every %s that still uses the %s %s?",
	"%s the %s first, then we can %s the %s.",
}

var errorMessages = []string{
	"Request timed out.",
	"402 Insufficient Balance",
	"terminated",
	"You have hit your ChatGPT usage limit (team plan). Try again in ~131 min.",
	`529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
	`400 {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 208934 tokens > 200000 maximum"}}`,
	"Connection error.",
	"fetch failed",
}

var labelNames = []string{
	"checkpoint", "before-refactor", "first-try", "green-tests", "bug-repro",
	"good-plan", "v2", "review-me", "works", "wip", "baseline", "keep",
}

var customMessageTypes = []string{
	"context-inject", "reminder", "prompt-summary", "enriched-prompt", "git-status",
}

var sqlTypes = []string{
	"TEXT", "INTEGER", "BIGINT", "BOOLEAN", "TIMESTAMPTZ", "JSONB", "UUID",
	"VARCHAR(255)", "NUMERIC(12, 2)", "BYTEA",
}

var goTypes = []string{
	"string", "int", "int64", "bool", "[]byte", "time.Time", "time.Duration",
	"error", "[]string", "map[string]string", "*http.Request", "io.Reader",
	"context.Context", "float64", "uint32", "json.RawMessage",
}

var tsTypes = []string{
	"string", "number", "boolean", "string[]", "Date", "unknown",
	"Record<string, string>", "Promise<void>", "Map<string, number>", "null",
}

var rustTypes = []string{
	"String", "u32", "u64", "i64", "usize", "bool", "Vec<u8>", "Option<String>",
	"&str", "Arc<Mutex<State>>", "HashMap<String, u64>", "PathBuf", "f64",
}

var pyTypes = []string{
	"str", "int", "float", "bool", "list[str]", "dict[str, Any]", "bytes",
	"Optional[str]", "Path", "datetime",
}

var goImports = []string{
	`"bufio"`, `"bytes"`, `"context"`, `"encoding/json"`, `"errors"`, `"fmt"`,
	`"io"`, `"log/slog"`, `"net/http"`, `"os"`, `"path/filepath"`, `"sort"`,
	`"strconv"`, `"strings"`, `"sync"`, `"time"`,
}

var pyImports = []string{
	"import os", "import sys", "import json", "import asyncio", "import logging",
	"from pathlib import Path", "from dataclasses import dataclass, field",
	"from typing import Any, Optional", "from datetime import datetime, timezone",
	"import re", "from collections import defaultdict",
}

var tsImports = []string{
	`import { readFile } from "node:fs/promises";`,
	`import path from "node:path";`,
	`import { z } from "zod";`,
	`import type { Request, Response } from "express";`,
	`import { useEffect, useState } from "react";`,
	`import { describe, expect, it } from "vitest";`,
}

var rustUses = []string{
	"use std::collections::HashMap;", "use std::sync::{Arc, Mutex};",
	"use std::path::PathBuf;", "use anyhow::{Context, Result};",
	"use serde::{Deserialize, Serialize};", "use tokio::sync::mpsc;",
	"use std::io::{self, BufRead, Write};", "use std::fmt;",
}
