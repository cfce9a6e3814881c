#!/usr/bin/env bash
# compare.sh: piexport side by side with pi's own `pi --export`, on
# generated sessions of several shapes and sizes. See bench/README.md.
#
#   bench/compare.sh [--profiles "mixed chat code tools linear"] [--sizes "5MB 50MB 200MB"]
#                    [--runs 3] [--keep DIR] [--seed 1] [--export-timeout 900] [--page-timeout 300]
#
# For each profile, size and tool: export wall time, peak RSS and page size,
# then, in headless Chromium, the time until the leaf's last message is
# visible; piexport's page also gets a deep link to another branch, followed
# as soon as the leaf shows, and a branch switch timed. Medians of
# --runs runs, pi / piexport ratios from the same run of this script, and
# every target of the speed figures with whether it was met.
set -euo pipefail

PI_VERSION=0.73.1
PI_PACKAGE=@mariozechner/pi-coding-agent
PROFILES="mixed chat code tools linear"
SIZES="5MB 50MB 200MB"
RUNS=3
KEEP=""
SEED=1
EXPORT_TIMEOUT=900
PAGE_TIMEOUT=300
# At and above this session size a tool that runs out of memory or time is
# reported as such rather than failing the benchmark.
OPTIONAL_BYTES=200000000

usage() {
	echo "usage:" >&2
	sed -n '5,6p' "$0" | sed 's/^#//' >&2
	exit "$1"
}
while [ $# -gt 0 ]; do
	case $1 in
	--profiles) PROFILES=${2:?}; shift 2 ;;
	--sizes) SIZES=${2:?}; shift 2 ;;
	--runs) RUNS=${2:?}; shift 2 ;;
	--keep) KEEP=${2:?}; shift 2 ;;
	--seed) SEED=${2:?}; shift 2 ;;
	--export-timeout) EXPORT_TIMEOUT=${2:?}; shift 2 ;;
	--page-timeout) PAGE_TIMEOUT=${2:?}; shift 2 ;;
	-h | --help) usage 0 ;;
	*) echo "compare.sh: unknown argument $1" >&2; usage 2 ;;
	esac
done
case $RUNS in '' | *[!0-9]* | 0) echo "compare.sh: --runs must be a positive number" >&2; exit 2 ;; esac

say() { echo "compare.sh: $*" >&2; }
die() { say "$*"; exit 1; }

REPO=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "$KEEP" ]; then
	mkdir -p "$KEEP"
	WORK=$(cd "$KEEP" && pwd)
else
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/piexport-bench.XXXXXX")
	trap 'rm -rf "$WORK"' EXIT
fi
mkdir -p "$WORK/bin" "$WORK/logs" "$WORK/pi-agent"
RESULTS=$WORK/results.tsv
printf 'profile\tsize\tbytes\trun\ttool\tstep\tstatus\twall_s\trss_kb\tout_bytes\tpage\n' >"$RESULTS"

# ---- tools -------------------------------------------------------------------

if ! /usr/bin/time --version >/dev/null 2>&1; then
	say "GNU time is missing: installing the Debian package 'time'"
	sudo=""
	[ "$(id -u)" = 0 ] || sudo="sudo -n"
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time >/dev/null ||
		die "could not install GNU time (apt-get install time)"
fi
command -v go >/dev/null || die "go is not on PATH"
command -v node >/dev/null || die "node (20.6 or newer) is not on PATH; pi needs it"
node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a==20&&b>=6)?0:1)' ||
	die "pi needs node 20.6 or newer, found $(node --version)"

say "building piexport, gensession and pagetime into $WORK/bin"
(cd "$REPO" && go build -o "$WORK/bin/piexport" ./cmd/piexport &&
	go build -o "$WORK/bin/gensession" ./cmd/gensession &&
	go build -o "$WORK/bin/pagetime" ./bench/pagetime) || die "go build failed"

# pi: PI_EXPORT_BIN if set, else an install cached outside the repository
# (so later runs work offline), else a fresh npm install into a temporary
# folder that then becomes the cache.
if [ -n "${PI_EXPORT_BIN:-}" ]; then
	PI=$PI_EXPORT_BIN
else
	CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/piexport-bench/pi-coding-agent-$PI_VERSION
	PI=$CACHE/node_modules/.bin/pi
	if [ ! -x "$PI" ]; then
		command -v npm >/dev/null || die "npm is not on PATH; install it or set PI_EXPORT_BIN to a pi executable"
		mkdir -p "$(dirname "$CACHE")"
		tmp=$(mktemp -d "$CACHE.tmp.XXXXXX")
		say "installing $PI_PACKAGE@$PI_VERSION from npm into $tmp (kept as $CACHE for later runs)"
		npm install --prefix "$tmp" --no-audit --no-fund --loglevel=error "$PI_PACKAGE@$PI_VERSION" >"$WORK/logs/npm.log" 2>&1 ||
			{ cat "$WORK/logs/npm.log" >&2; rm -rf "$tmp"; die "npm install failed"; }
		rm -rf "$CACHE"
		mv "$tmp" "$CACHE"
	fi
fi
# pi gets a settings folder of its own and no network, so the benchmark
# neither reads nor changes the user's ~/.pi.
PI_CMD=(env -C "$WORK" PI_CODING_AGENT_DIR="$WORK/pi-agent" PI_OFFLINE=1 PI_SKIP_VERSION_CHECK=1 "$PI")
# pi --version prints nothing when its output is not a terminal, so the
# version comes from the package beside the executable.
PI_FOUND=$(node -p 'require(process.argv[1]).version' "$(dirname "$(readlink -f "$PI")")/../package.json" 2>/dev/null) || PI_FOUND=unknown
[ "$PI_FOUND" = "$PI_VERSION" ] || say "warning: $PI is pi version $PI_FOUND, not $PI_VERSION"

# ---- measuring -----------------------------------------------------------------

# timed LIMIT LOG CMD...: runs CMD under GNU time and a timeout, its output
# into LOG. Sets WALL (s), RSS (KiB) and STATUS (ok, timeout, out of memory,
# or exit N).
timed() {
	local limit=$1 log=$2 tf rc=0
	shift 2
	tf=$(mktemp "$WORK/time.XXXXXX")
	/usr/bin/time -f '%e %M' -o "$tf" timeout -k 10 "$limit" "$@" >"$log" 2>&1 || rc=$?
	read -r WALL RSS < <(tail -n1 "$tf") || true
	rm -f "$tf"
	case $rc in
	0) STATUS=ok ;;
	124 | 137) STATUS="timeout >${limit}s" ;;
	*)
		if grep -qiE 'heap out of memory|out of memory|Reached heap limit|Cannot create a string longer|Invalid string length' "$log"; then
			STATUS="out of memory"
		else
			STATUS="exit $rc"
		fi
		;;
	esac
}

# record PROFILE SIZE BYTES RUN TOOL STEP STATUS WALL RSS OUT PAGE
record() { local IFS=$'\t'; echo "$*" >>"$RESULTS"; }

# failed WHAT LOG: says what failed and shows the end of its log. Whether
# that fails the benchmark is decided at the end (see verdict).
failed() {
	say "$1; the end of $2:"
	tail -n 3 "$2" | cut -c1-300 >&2 || true
}

for profile in $PROFILES; do
for size in $SIZES; do
	tag=$profile-$size
	session=$WORK/session-$tag.jsonl
	# Generated afresh every time (a second or two), so a kept folder
	# never holds a session of another seed or generator.
	say "[$tag] generating $session (seed $SEED)"
	# The linear profile is one long path as it is: its few branches are
	# its own, and it takes no others.
	shape="--branches --images --compactions --labels"
	[ "$profile" = linear ] && shape="--labels"
	# shellcheck disable=SC2086
	timeout 900 "$WORK/bin/gensession" --seed "$SEED" --size "$size" --profile "$profile" $shape -o "$session" 2>>"$WORK/logs/gensession.log" ||
		die "gensession --profile $profile --size $size failed"
	bytes=$(stat -c %s "$session")
	# The text to wait for: the start of the leaf's last message, as
	# pagetime --snippet finds it with piexport's own loader.
	text=$(timeout 900 "$WORK/bin/pagetime" --snippet "$session") || die "no snippet for $session"
	say "[$tag] $bytes bytes; waiting in the pages for: $text"
	pi_dead=""
	for run in $(seq 1 "$RUNS"); do
		# Alternate which tool goes first, so neither always gets the
		# warmer page cache.
		if [ $((run % 2)) = 1 ]; then order="piexport pi"; else order="pi piexport"; fi
		for tool in $order; do
			out=$WORK/$tool-$tag.html
			log=$WORK/logs/$tool-$tag-export-$run.log
			if [ "$tool" = pi ]; then
				[ -z "$pi_dead" ] || { record "$profile" "$size" "$bytes" "$run" pi export "$pi_dead" - - - -; continue; }
				# pi rewrites session files it migrates: it only ever
				# sees a copy.
				cp "$session" "$WORK/pi-input-$tag.jsonl"
				rm -f "$out"
				timed "$EXPORT_TIMEOUT" "$log" "${PI_CMD[@]}" --export "$WORK/pi-input-$tag.jsonl" "$out"
			else
				rm -f "$out"
				timed "$EXPORT_TIMEOUT" "$log" "$WORK/bin/piexport" -o "$out" "$session"
			fi
			[ "$STATUS" != ok ] || [ -s "$out" ] || STATUS="no output"
			outb=$( [ "$STATUS" = ok ] && stat -c %s "$out" || echo -)
			[ "$STATUS" = ok ] || { WALL=-; RSS=-; }
			record "$profile" "$size" "$bytes" "$run" "$tool" export "$STATUS" "$WALL" "$RSS" "$outb" -
			say "[$tag] run $run/$RUNS: $tool export: $STATUS ${WALL}s ${RSS}KiB"
			if [ "$STATUS" != ok ]; then
				failed "$tool --export of $tag: $STATUS" "$log"
				if [ "$tool" = pi ]; then pi_dead=$STATUS; else break 2; fi
			fi
		done
		for tool in $order; do
			out=$WORK/$tool-$tag.html
			[ -s "$out" ] || continue
			[ "$tool" = pi ] && [ -n "$pi_dead" ] && continue
			log=$WORK/logs/$tool-$tag-page-$run.log
			args=(--timeout "${PAGE_TIMEOUT}s" --text "$text")
			[ "$tool" = piexport ] && args+=(--deeplink --switch)
			rc=0
			line=$(timeout $((PAGE_TIMEOUT + 60)) "$WORK/bin/pagetime" "${args[@]}" "$out" 2>"$log") || rc=$?
			if [ $rc = 0 ]; then
				st=ok
			elif grep -q 'timed out' "$log"; then
				st="timeout >${PAGE_TIMEOUT}s"
			elif grep -q 'page reported errors' "$log"; then
				st="page script failed: $(sed -n 's/.*page reported errors: //p' "$log" | head -n1 | cut -c1-70)"
			else
				st="exit $rc"
			fi
			record "$profile" "$size" "$bytes" "$run" "$tool" page "$st" - - - "${line:--}"
			say "[$tag] run $run/$RUNS: $tool page: $st ${line}"
			[ "$st" = ok ] || failed "pagetime on the $tool page of $tag: $st" "$log"
		done
	done
	# Sessions and pages are large; only a kept folder keeps them.
	[ -n "$KEEP" ] || rm -f "$session" "$WORK/pi-input-$tag.jsonl" "$WORK"/*-"$tag".html
done
done

# ---- the tables ------------------------------------------------------------------

# The fields of results.tsv, for awk.
F_WALL=8 F_RSS=9 F_OUT=10

# median PROFILE SIZE TOOL STEP KEY: the median over the ok rows of that
# profile, size, tool and step of KEY, a field number of results.tsv or a
# key of pagetime's line. spread: "min-max" over the same rows.
median() { stat_of median "$@"; }
spread() { stat_of spread "$@"; }
stat_of() {
	awk -F'\t' -v what="$1" -v profile="$2" -v size="$3" -v tool="$4" -v step="$5" -v key="$6" '
	function kv(k,  n, i, a, p) { n = split($11, a, " "); for (i = 1; i <= n; i++) { p = index(a[i], "="); if (substr(a[i], 1, p - 1) == k) return substr(a[i], p + 1) } return "" }
	$1 == profile && $2 == size && $5 == tool && $6 == step && $7 == "ok" {
		v = (key ~ /^[0-9]+$/) ? $key : kv(key)
		if (v != "" && v != "-" && v != "none") vals[n++] = v + 0
	}
	END {
		if (n == 0) { print "-"; exit }
		for (i = 1; i < n; i++) for (j = i; j > 0 && vals[j-1] > vals[j]; j--) { t = vals[j]; vals[j] = vals[j-1]; vals[j-1] = t }
		if (what == "spread") print vals[0] "-" vals[n-1]
		else print (n % 2) ? vals[int(n/2)] : (vals[n/2-1] + vals[n/2]) / 2
	}' "$RESULTS"
}
# failures PROFILE SIZE TOOL STEP: "N of M runs failed: FIRST REASON", or "".
failures() {
	awk -F'\t' -v profile="$1" -v size="$2" -v tool="$3" -v step="$4" '
	$1 == profile && $2 == size && $5 == tool && $6 == step { n++; if ($7 != "ok") { bad++; if (why == "") why = $7 } }
	END { if (bad) printf "%d of %d runs failed: %s\n", bad, n, why }' "$RESULTS"
}
# verdict: 1 if the benchmark failed. Below OPTIONAL_BYTES, every piexport
# run must succeed, and pi must succeed at least once per step (pi's own
# page fails now and then on large sessions, which is worth reporting, not
# fatal). At and above it, nothing is fatal.
verdict() {
	awk -F'\t' -v optional="$OPTIONAL_BYTES" '
	NR > 1 && $3 < optional {
		k = $1 " " $2 " " $5 " " $6
		if ($7 == "ok") ok[k]++; else { bad[k]++; if ($5 == "piexport") fatal = 1 }
	}
	END { for (k in bad) if (!ok[k]) fatal = 1; print fatal ? 1 : 0 }' "$RESULTS"
}
fmt() { [ "$2" = - ] && echo - || awk -v f="$1" -v v="$2" 'BEGIN { printf f, v }'; }
ratio() { if [ "$1" = - ] || [ "$2" = - ] || [ "$2" = 0 ]; then echo -; else awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; fi; }
# scale VALUE MUL [DIV]: VALUE * MUL / DIV, or - for -.
scale() { if [ "$1" = - ]; then echo -; else awk -v v="$1" -v m="$2" -v d="${3:-1}" 'BEGIN { print v * m / d }'; fi; }
# larger A B: the larger of two figures, - if either is missing.
larger() { if [ "$1" = - ] || [ "$2" = - ]; then echo -; else awk -v a="$1" -v b="$2" 'BEGIN { print (a > b ? a : b) }'; fi; }

# target WHAT FIGURE OP LIMIT [SPREAD]: one line of the targets table.
target() {
	local met
	if [ "$2" = - ]; then
		met="not measured"
	else
		met=$(awk -v v="$2" -v op="$3" -v l="$4" 'BEGIN { ok = (op == "<=") ? v <= l : v >= l; print ok ? "met" : "NOT MET" }')
	fi
	printf "  %-40s %8s %-13s %s %-5s %s\n" "$1" "$(fmt %.2f "$2")" "${5:+($5)}" "$3" "$4" "$met"
}

REV=$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -z "$(git -C "$REPO" status --porcelain 2>/dev/null)" ] || REV="$REV+local changes"
row="%-15s %-12s %8s %7s %8s %10s %9s %7s %8s %9s %9s %8s\n"
{
	echo
	echo "piexport ($REV) vs pi --export $PI_FOUND: medians of $RUNS runs, seed $SEED, $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)"
	echo
	printf "$row" session tool "export s" "RSS MB" "page MB" visible_ms longtask dcl_ms elements deeplink switch_ms back_ms
	for profile in $PROFILES; do
		for size in $SIZES; do
			bytes=$(awk -F'\t' -v p="$profile" -v s="$size" '$1==p && $2==s {print $3; exit}' "$RESULTS")
			[ -n "$bytes" ] || continue
			label=$(awk -v p="$profile" -v b="$bytes" 'BEGIN { printf "%s %.0f MB", p, b / 1e6 }')
			declare -A v=()
			for tool in piexport pi; do
				v[$tool.wall]=$(median "$profile" "$size" $tool export $F_WALL)
				v[$tool.rss]=$(scale "$(median "$profile" "$size" $tool export $F_RSS)" 1 1024)
				v[$tool.out]=$(scale "$(median "$profile" "$size" $tool export $F_OUT)" 1e-6)
				v[$tool.vis]=$(median "$profile" "$size" $tool page visible_net_ms)
				v[$tool.lt]=$(median "$profile" "$size" $tool page longtask_max_ms)
				v[$tool.dcl]=$(median "$profile" "$size" $tool page dcl_ms)
				v[$tool.el]=$(median "$profile" "$size" $tool page elements)
				v[$tool.deep]=$(median "$profile" "$size" $tool page deeplink_at_ms)
				v[$tool.sw]=$(median "$profile" "$size" $tool page switch_ms)
				v[$tool.back]=$(median "$profile" "$size" $tool page back_ms)
				printf "$row" "$label" $tool "$(fmt %.2f "${v[$tool.wall]}")" "$(fmt %.0f "${v[$tool.rss]}")" "$(fmt %.1f "${v[$tool.out]}")" \
					"$(fmt %.0f "${v[$tool.vis]}")" "$(fmt %.0f "${v[$tool.lt]}")" "$(fmt %.0f "${v[$tool.dcl]}")" \
					"$(fmt %.0f "${v[$tool.el]}")" "$(fmt %.0f "${v[$tool.deep]}")" "$(fmt %.0f "${v[$tool.sw]}")" "$(fmt %.0f "${v[$tool.back]}")"
				for step in export page; do
					s=$(failures "$profile" "$size" $tool $step)
					[ -z "$s" ] || printf "%-15s %-12s %s\n" "" "" "$tool $step: $s"
				done
				label=""
			done
			x() { local r; r=$(ratio "$1" "$2"); [ "$r" = - ] && echo - || echo "${r}x"; }
			printf "$row" "" "pi/piexport" "$(x "${v[pi.wall]}" "${v[piexport.wall]}")" "$(x "${v[pi.rss]}" "${v[piexport.rss]}")" \
				"$(x "${v[pi.out]}" "${v[piexport.out]}")" "$(x "${v[pi.vis]}" "${v[piexport.vis]}")" "$(x "${v[pi.lt]}" "${v[piexport.lt]}")" \
				"$(x "${v[pi.dcl]}" "${v[piexport.dcl]}")" "$(x "${v[pi.el]}" "${v[piexport.el]}")" - - -
			unset v
		done
	done
	cat <<EOF

export s, RSS MB: the export's wall time and peak resident memory (GNU time); page MB: the HTML written.
visible_ms: headless Chromium, from navigation start until the frame that first renders the leaf's last
  message is drawn, less what pagetime's own search cost the page (probe_ms in results.tsv).
longtask: the longest main-thread task before that; dcl_ms: DOMContentLoaded; elements: the
  document's elements once loaded.
deeplink (piexport only): as soon as the leaf shows, a link to the earliest other branch is followed;
  the time from navigation start until that entry is drawn in view (deeplink_ms in results.tsv: from
  following the link). switch_ms: a link to that branch once the page has loaded, until its entry is
  drawn in view; back_ms: a link to the old end of the path until it is drawn again.
Ratios above 1: pi needs more (time, memory, bytes) than piexport.
Every run, with more figures (load, script/style/layout time, elements, JS heap): $RESULTS
EOF

	# Every target of the speed figures, with piexport's median, the
	# spread over the runs in brackets, and whether it was met.
	echo
	echo "Targets: piexport's median (spread over the runs); ratios to pi from the same run, sizes to the session's bytes"
	for profile in $PROFILES; do
		for size in $SIZES; do
			bytes=$(awk -F'\t' -v p="$profile" -v s="$size" '$1==p && $2==s {print $3; exit}' "$RESULTS")
			[ -n "$bytes" ] || continue
			echo "$profile $(awk -v b="$bytes" 'BEGIN { printf "%.0f MB", b / 1e6 }'):"
			m() { median "$profile" "$size" piexport "$@"; }
			sp() { spread "$profile" "$size" piexport "$@"; }
			speedup=$(ratio "$(median "$profile" "$size" pi export $F_WALL)" "$(m export $F_WALL)")
			rss=$(scale "$(m export $F_RSS)" 1024 "$bytes")
			vis=$(scale "$(m page visible_net_ms)" 0.001)
			longest=$(larger "$(m page longtask_max_to_load_ms)" "$(larger "$(m page switch_longtask_max_ms)" "$(m page back_longtask_max_ms)")")
			deep=$(scale "$(m page deeplink_at_ms)" 0.001)
			if [ "$bytes" -lt 20000000 ]; then
				target "export: times as fast as pi" "$speedup" ">=" 4 "$(sp export $F_WALL) s"
				target "leaf visible: s" "$vis" "<=" 0.3 "$(sp page visible_net_ms) ms"
			elif [ "$bytes" -lt 100000000 ]; then
				target "elements in the DOM after load" "$(m page elements)" "<=" 20000 "$(sp page elements)"
				target "leaf visible: s" "$vis" "<=" 1 "$(sp page visible_net_ms) ms"
				target "deep link to another branch: s" "$deep" "<=" 1 "$(sp page deeplink_at_ms) ms"
				target "longest task, loading or switching: ms" "$longest" "<=" 200 "$(sp page longtask_max_to_load_ms)"
				target "export peak RSS: times the session" "$rss" "<=" 2 "$(sp export $F_RSS) KiB"
				target "export: times as fast as pi" "$speedup" ">=" 1.5 "$(sp export $F_WALL) s"
				target "page: times the session" "$(scale "$(m export $F_OUT)" 1 "$bytes")" "<=" 1.3
			else
				target "elements in the DOM after load" "$(m page elements)" "<=" 20000 "$(sp page elements)"
				target "leaf visible: s" "$vis" "<=" 2 "$(sp page visible_net_ms) ms"
				target "deep link to another branch: s" "$deep" "<=" 2 "$(sp page deeplink_at_ms) ms"
				target "longest task, loading or switching: ms" "$longest" "<=" 400 "$(sp page longtask_max_to_load_ms)"
				target "export peak RSS: times the session" "$rss" "<=" 2 "$(sp export $F_RSS) KiB"
				target "page: times the session" "$(scale "$(m export $F_OUT)" 1 "$bytes")" "<=" 1.3
			fi
		done
	done
}
[ -z "$KEEP" ] && say "pass --keep DIR to keep the sessions, pages, logs and results.tsv"

exit "$(verdict)"
