package pgtest

import (
	"bytes"
	"os"
	"testing"
)

func TestMain(m *testing.M) { Main(m, "piexport/internal/pgtest") }

// TestCluster starts the cluster, writes a row in a database of its own
// and finds it in the dump, and checks the cluster listens on no TCP
// port.
func TestCluster(t *testing.T) {
	c := Start(t)
	db := c.NewDatabase(t)
	c.Exec(t, db, "CREATE TABLE planted (v text)", "INSERT INTO planted VALUES ('a-planted-value')")
	if dump := c.Dump(t, db); !bytes.Contains(dump, []byte("a-planted-value")) {
		t.Errorf("the dump lacks the row written:\n%s", dump)
	}
	conf, err := os.ReadFile(c.Dir + "/data/postmaster.opts")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(conf, []byte(`"listen_addresses="`)) {
		t.Errorf("postgres was started without listen_addresses emptied: %s", conf)
	}
	if c2 := Start(t); c2 != c {
		t.Error("a second Start started a second cluster")
	}
}
