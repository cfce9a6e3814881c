package catalog

// schema creates the cache database's tables. A change to any of them
// needs a new schemaVersion.
//
// files holds one row per session file: how it looked when it was read
// (its stamp, its content hash, and what continuing to read it needs) and
// what it holds (its summary). entries holds one row per entry; its rowid
// orders entries by time (see keyBase), and is the rowid of the entry's
// text in fts; words and tf are what ranking needs of it (termstats.go).
// terms holds how many entries hold each common word, counted over a
// sample, and counts the entries with text and their words: ranking's
// figures for the whole shard. usage sums tokens and cost per file, UTC
// day and model.
var schema = []string{
	`CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
	`CREATE TABLE files(
		fid INTEGER PRIMARY KEY,
		path TEXT NOT NULL UNIQUE,
		size INTEGER NOT NULL,
		mtime INTEGER NOT NULL,
		ctime INTEGER NOT NULL,
		inode INTEGER NOT NULL,
		sha256 BLOB,
		state BLOB,
		anchor BLOB,
		read_size INTEGER NOT NULL DEFAULT 0,
		lines INTEGER NOT NULL DEFAULT 0,
		tail INTEGER NOT NULL DEFAULT 0,
		header BLOB,
		session_id TEXT NOT NULL DEFAULT '',
		cwd TEXT NOT NULL DEFAULT '',
		parent_session TEXT NOT NULL DEFAULT '',
		name TEXT NOT NULL DEFAULT '',
		first_title TEXT NOT NULL DEFAULT '',
		summary BLOB,
		start_ms INTEGER NOT NULL DEFAULT 0,
		end_ms INTEGER NOT NULL DEFAULT 0,
		models TEXT NOT NULL DEFAULT '',
		branches INTEGER NOT NULL DEFAULT 0,
		warnings INTEGER NOT NULL DEFAULT 0,
		err TEXT NOT NULL DEFAULT ''
	)`,
	`CREATE TABLE entries(
		rid INTEGER PRIMARY KEY,
		fid INTEGER NOT NULL,
		line INTEGER NOT NULL,
		part INTEGER NOT NULL,
		id TEXT NOT NULL,
		parent TEXT NOT NULL,
		branch INTEGER NOT NULL,
		kind TEXT NOT NULL,
		off INTEGER NOT NULL,
		len INTEGER NOT NULL,
		words INTEGER NOT NULL DEFAULT 0,
		tf BLOB
	)`,
	`CREATE INDEX entries_fid ON entries(fid)`,
	`CREATE TABLE terms(term TEXT PRIMARY KEY, df INTEGER NOT NULL) WITHOUT ROWID`,
	`CREATE TABLE counts(id INTEGER PRIMARY KEY CHECK (id = 0), entries INTEGER NOT NULL, words INTEGER NOT NULL)`,
	`INSERT INTO counts(id, entries, words) VALUES(0, 0, 0)`,
	`CREATE TABLE usage(
		fid INTEGER NOT NULL,
		day TEXT NOT NULL,
		model TEXT NOT NULL,
		messages INTEGER NOT NULL,
		input INTEGER NOT NULL,
		output INTEGER NOT NULL,
		cache_read INTEGER NOT NULL,
		cache_write INTEGER NOT NULL,
		cost REAL NOT NULL,
		PRIMARY KEY(fid, day, model)
	) WITHOUT ROWID`,
}

// ftsSchema creates the full-text index. Its words are made in Go
// (tokens.go); ascii only splits them.
//
// Contentless: the text stays in the session files, which snippets are
// cut from; the index alone is a fraction of their size. A catalog that
// prepares sessions (Options.Mask: the server under --redact) keeps
// the words in the table instead, with FTS5's secure-delete on: deleting
// from a contentless table leaves the words in the index until its
// segments are merged, and a value found to be secret only once a file
// grew must not stay there (see store.scrub).
func ftsSchema(prepared bool) []string {
	create := `CREATE VIRTUAL TABLE fts USING fts5(text, content='', contentless_delete=1, tokenize='ascii')`
	if prepared {
		create = `CREATE VIRTUAL TABLE fts USING fts5(text, tokenize='ascii')`
	}
	out := []string{create,
		// FTS5 keeps new postings in memory until a commit, or until they
		// pass hashsize, then writes them as a segment it later merges
		// with the others; batches commit about 24 MB of text (see
		// batchBytes), so a larger hash than the 1 MB default means fewer
		// segments to merge. Each shard holds one while a history is read:
		// 8 MB rather than 16 took 40 MB off the server's peak memory, for
		// no change in CPU time that could be told from the noise.
		`INSERT INTO fts(fts, rank) VALUES('hashsize', 8388608)`,
		// Leaves of a page each (16 KB pages, see pageSize): FTS5's
		// default of about 4 KB suits 4 KB pages.
		`INSERT INTO fts(fts, rank) VALUES('pgsz', 16000)`,
		// The words of fts and how many entries hold each, counted as
		// they are read: for prefixes that no common word starts with
		// (see Catalog.expand).
		`CREATE VIRTUAL TABLE vocab USING fts5vocab(fts, row)`,
	}
	if prepared {
		out = append(out, `INSERT INTO fts(fts, rank) VALUES('secure-delete', 1)`)
	}
	return out
}
