package archive

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
)

// Under Options.Mask, sessions are read in families: a session, its
// sub-agents' transcripts, the session it was forked from and its forks,
// and theirs (the sessions the archive links, as far as the links lead).
// They repeat each other, so a page shows what its whole family has to
// mask in it: the family is prepared together, and when one member
// changes, every member's page is made again.

// families returns the family of each session of order, by key: its
// members' keys, in the order of their sources' absolute paths (abs), in
// which an export and the server number a family's values too.
func (l *links) families(order []string, abs map[string]string) map[string][]string {
	root := map[string]string{}
	var find func(k string) string
	find = func(k string) string {
		for root[k] != "" && root[k] != k {
			root[k] = root[root[k]]
			k = root[k]
		}
		return k
	}
	join := func(a, b string) {
		if a == "" || b == "" {
			return
		}
		ra, rb := find(a), find(b)
		if ra != rb {
			root[ra] = rb
		}
	}
	for _, k := range order {
		root[k] = k
	}
	for _, k := range order {
		join(k, l.parent[k])
		join(k, l.forkOf[k])
	}
	members := map[string][]string{}
	for _, k := range order {
		r := find(k)
		members[r] = append(members[r], k)
	}
	out := make(map[string][]string, len(order))
	for _, list := range members {
		slices.SortFunc(list, func(a, b string) int { return strings.Compare(abs[a], abs[b]) })
		for _, k := range list {
			out[k] = list
		}
	}
	return out
}

// familyDigest sums the contents of a family's sources, as next has them:
// a page made with another sum may show less masked than it must.
func familyDigest(family []string, next *manifest) string {
	h := sha256.New()
	for _, k := range family {
		fmt.Fprintf(h, "%s %s\n", k, next.Sessions[k].SHA256)
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// unitsOf groups jobs into the units runJobs does: a family's jobs
// together under Mask (families set), else each job alone.
func unitsOf(jobs []*job, families map[string][]string) []unit {
	if families == nil {
		out := make([]unit, len(jobs))
		for i, j := range jobs {
			out[i] = unit{jobs: []*job{j}}
		}
		return out
	}
	var out []unit
	at := map[string]int{} // a family's first member → its unit
	for _, j := range jobs {
		fam := families[j.key]
		if len(fam) == 0 {
			fam = []string{j.key}
		}
		i, ok := at[fam[0]]
		if !ok {
			i = len(out)
			at[fam[0]] = i
			out = append(out, unit{family: fam})
		}
		out[i].jobs = append(out[i].jobs, j)
	}
	for _, u := range out {
		slices.SortFunc(u.jobs, func(a, b *job) int { return strings.Compare(a.key, b.key) })
	}
	return out
}
