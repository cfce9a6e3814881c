package teamcatalog

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/piexport/piexport/catalog"
)

// TestReadShared: bob's catalog lists, searches, loads and counts the
// team's sessions and his own, never alice's private one, with the local
// catalog's query language.
func TestReadShared(t *testing.T) {
	ctx := context.Background()
	c, name, _ := initialised(t)
	members(t, c, name)
	alice, bob := connect(t, c.URL("alice", name)), connect(t, c.URL("bob", name))
	aliceTeam, _ := writeSessions(t, t.TempDir(), 60, 1)
	alicePrivate, _ := writeSessions(t, t.TempDir(), 70, 1)
	bobs, _ := writeSessions(t, t.TempDir(), 80, 1)
	push(t, alice, aliceTeam, PushOptions{Machine: "laptop"})
	push(t, alice, alicePrivate, PushOptions{Machine: "laptop", Visibility: "private"})
	push(t, bob, bobs, PushOptions{Machine: "desk"})

	cat, err := Open(ctx, c.URL("bob", name))
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	list := cat.List()
	if len(list) != 2 {
		t.Fatalf("bob lists %d sessions, want 2", len(list))
	}
	owners := ""
	for _, i := range list {
		owners += strings.SplitN(i.Path, ":", 2)[0] + " "
		if i.Summary.Title == "" || i.Summary.Usage.Cost == 0 {
			t.Errorf("%s: summary %+v", i.ID, i.Summary)
		}
	}
	if owners != "alice@laptop bob@desk " {
		t.Errorf("the list says who and where: %q", owners)
	}
	for _, tc := range []struct {
		q    string
		hits int
	}{
		{"running", 2},
		{`"running it"`, 2},
		{"runn*", 2},
		{"running -nothing", 2},
		{"deploy please", 2},
		{"project:nowhere running", 0},
		{"model:claude running", 2},
		{"before:2026-01 running", 0},
		{"zebra", 0},
	} {
		res, err := cat.SearchPage(ctx, tc.q, 0, 50)
		if err != nil {
			t.Fatalf("%s: %v", tc.q, err)
		}
		if len(res.Hits) != tc.hits {
			t.Errorf("%s: %d hits, want %d: %v", tc.q, len(res.Hits), tc.hits, res.Hits)
		}
		for _, h := range res.Hits {
			if len(h.Marks) == 0 {
				t.Errorf("%s: the hit's snippet %q marks nothing", tc.q, h.Snippet)
			}
		}
	}
	s, info, err := cat.Load(list[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Entries) != 3 || info.Hash != list[0].Hash {
		t.Errorf("loaded %d entries, hash %s", len(s.Entries), info.Hash)
	}
	// Alice's private session is not there for bob, even by its key.
	var private string
	if err := alice.pool.QueryRow(ctx, `SELECT key FROM piexport.sessions WHERE visibility = 'private'`).Scan(&private); err != nil {
		t.Fatal(err)
	}
	if _, _, err := cat.Load(private); !errors.Is(err, catalog.ErrNotFound) {
		t.Errorf("bob loads alice's private session: %v", err)
	}
	records, people, err := cat.UsageByPerson(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(records) != 2 || strings.Join(people, " ") == "" {
		t.Errorf("usage: %+v by %v", records, people)
	}
}
