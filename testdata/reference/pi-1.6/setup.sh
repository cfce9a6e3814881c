#!/usr/bin/env bash
# Installs pi 1.6.0's own SessionManager into ./node_modules for
# make-pi16.mjs. As for pi 1.5.2 (the pi 1.5 reference's setup.sh; see
# SCHEMA-1.6.md), a full `npm install` of
# @earendil-works/pi-coding-agent@1.6.0 fails here: the registry lacks
# @earendil-works/pi-ai@1.6.0 and others. session-manager.js imports two
# helpers from pi-ai (getCurrentSystemMessage, uuidv7); pi-ai 1.5.2's are
# used, re-exported from its own files. pi 1.6.0's session-manager.js itself
# runs unchanged.
set -euo pipefail
cd "$(dirname "$0")"
[ -f node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js ] && exit 0
tmp=$(mktemp -d)
( cd "$tmp" && npm pack --silent @earendil-works/pi-coding-agent@1.6.0 @earendil-works/pi-ai@1.5.2 >/dev/null )
[ -f package.json ] || echo '{"name":"pi16-reference","private":true,"type":"module"}' > package.json
npm install --silent --no-save cross-spawn@7.0.6 >/dev/null
mkdir -p node_modules/@earendil-works/pi-coding-agent node_modules/@earendil-works/pi-ai
tar xzf "$tmp"/earendil-works-pi-coding-agent-1.6.0.tgz -C node_modules/@earendil-works/pi-coding-agent --strip-components=1
tar xzf "$tmp"/earendil-works-pi-ai-1.5.2.tgz -C node_modules/@earendil-works/pi-ai --strip-components=1
cat > node_modules/@earendil-works/pi-ai/subset.js <<'JS'
// The two pi-ai exports that pi's session-manager.js imports (1.5.2's).
export { getCurrentSystemMessage } from "./dist/utils/transcript.js";
export { uuidv7 } from "./dist/utils/uuid.js";
JS
node -e '
const fs = require("fs"); const p = "node_modules/@earendil-works/pi-ai/package.json";
const j = JSON.parse(fs.readFileSync(p)); j.exports = { ".": "./subset.js" }; fs.writeFileSync(p, JSON.stringify(j, null, 1));'
rm -rf "$tmp"
echo "pi 1.6.0 SessionManager ready in $(pwd)/node_modules"
