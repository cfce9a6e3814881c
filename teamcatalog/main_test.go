package teamcatalog

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/piexport/piexport/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m, "piexport/teamcatalog") }

// connect connects to url, closed when t ends.
func connect(t *testing.T, url string) *DB {
	t.Helper()
	db, err := Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	return db
}

// initialised is a new database with the schema made, and its owner's
// connection to it.
func initialised(t *testing.T) (*pgtest.Cluster, string, *DB) {
	t.Helper()
	c := pgtest.Start(t)
	name := c.NewDatabase(t)
	db := connect(t, c.URL(pgtest.Superuser, name))
	if _, err := db.Init(context.Background()); err != nil {
		t.Fatal(err)
	}
	return c, name, db
}

func TestInitAndVersions(t *testing.T) {
	ctx := context.Background()
	c := pgtest.Start(t)
	name := c.NewDatabase(t)
	db := connect(t, c.URL(pgtest.Superuser, name))
	from, err := db.Init(ctx)
	if err != nil || from != 0 {
		t.Fatalf("Init of an empty database: from %d, %v", from, err)
	}
	if from, err := db.Init(ctx); err != nil || from != SchemaVersion {
		t.Fatalf("Init again: from %d, %v", from, err)
	}
	if err := db.Check(ctx); err != nil {
		t.Fatal(err)
	}
	c.Exec(t, name, "UPDATE piexport.version SET version = 99")
	err = db.Check(ctx)
	var newer *NewerSchemaError
	if !errors.As(err, &newer) || newer.Found != 99 {
		t.Fatalf("Check of a newer schema: %v", err)
	}
	if !strings.Contains(err.Error(), "newer") || strings.Count(err.Error(), ".") > 0 {
		t.Errorf("not one clear sentence: %q", err)
	}
	if _, err := db.Init(ctx); !errors.As(err, &newer) {
		t.Errorf("Init over a newer schema: %v", err)
	}
}

// TestCheckMakesSchema: a database without a catalog gets one from the
// first to use it, when that role may make it.
func TestCheckMakesSchema(t *testing.T) {
	c := pgtest.Start(t)
	db := connect(t, c.URL(pgtest.Superuser, c.NewDatabase(t)))
	if err := db.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	if v, err := version(context.Background(), db.pool); err != nil || v != SchemaVersion {
		t.Fatalf("version %d, %v", v, err)
	}
}

// TestUnreachableHidesPassword: a database that cannot be reached is one
// sentence naming it, without the password of the connection string.
func TestUnreachableHidesPassword(t *testing.T) {
	dir := t.TempDir()
	for _, url := range []string{
		"postgres://alice:s3cr3t-pw-4711@/team?host=" + dir,
		"postgres://alice:s3cr3t-pw-4711@127.0.0.1:1/team?connect_timeout=2",
		"host=" + dir + " user=alice password=s3cr3t-pw-4711 dbname=team",
		"postgres://alice:s3cr3t-pw-4711@[::1/team", // malformed
	} {
		_, err := Connect(context.Background(), url)
		if err == nil {
			t.Fatalf("%s: connected", url)
		}
		if strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("the error shows the password: %v", err)
		}
		if !strings.Contains(url, "[") && !errors.Is(err, ErrUnreachable) {
			t.Errorf("%s: not reported unreachable: %v", url, err)
		}
	}
}

func TestHidePasswords(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"postgres://bob:pw@host/db", "postgres://bob:xxxxx@host/db"},
		{"user=bob password='a b\\'c' host=x", "user=bob password=xxxxx host=x"},
		{"password=abc", "password=xxxxx"},
		{"said hunter2 twice: hunter2", "said xxxxx twice: xxxxx"},
	} {
		if got := hidePasswords(tc.in, "hunter2"); got != tc.want {
			t.Errorf("hidePasswords(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
