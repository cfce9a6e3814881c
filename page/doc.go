// Package page renders one loaded session as one self-contained HTML
// page: every entry rendered once, on the server, with a tree of the
// whole session that lets the page show any path through it.
//
// It knows nothing of files on disk beyond what it is handed, of other
// sessions (package site lists many) or of other formats (package gfm).
// Session text becomes HTML only through package render.
//
// # A page at any size
//
// A session can hold tens of thousands of entries and hundreds of
// megabytes. The page's work grows with what is on the screen, not with
// the session: the document the browser builds stays small whatever the
// session's size, and the script starts before the rest of the file has
// been read.
//
// What the document holds at load, in the order of the file: what the
// first screen needs comes first, so that the browser parses and paints
// it before it has read the rest (a Chromium trace of a 50 MB page had
// the leaf's group 3.3 MB into the file, after 2.3 MB of index, previews
// and the list for a browser without JavaScript; the main thread's time
// before the leaf was painted was parsing that, the script's start and
// the tree's layout).
//
//  1. The head: the stylesheet and the script, inline, allowed by hash.
//     The script is the modules of assets/ joined (pageScripts; what each
//     does and how they fit: assets/page.js), without their lines of
//     comments. It only sets the theme and waits.
//  2. The sidebar's controls and an empty tree (role="tree").
//  3. The header: the session's facts, tokens and the Insights charts.
//  4. The index (<script type="application/json" id="session-index">):
//     per entry, in tree order, its id, parent, kind, role and label,
//     whether it has an article of its own and an estimate of its
//     height; and, once, what the script knows of how the page is
//     written (scriptConfig) and which kinds each of the tree's filters
//     shows. This is all the script needs to lay out the path and follow
//     a link: a few dozen bytes an entry.
//  5. The first screen: copies of the groups that end the path in view
//     (see below), which the script draws as soon as they have come.
//  6. The rest of the index: the previews of the tree's rows in blocks
//     of 2,048 (<script class="rows">), which the script parses when it
//     first draws one of their rows, and the usage to sum along a path
//     (#session-usage; the header has the sums of the path in view). The
//     tree is laid out once they have come and the first screen has been
//     painted.
//  7. The entries, in blocks of about 200 KB of HTML each:
//     - the path in view in "groups" of consecutive entries, each a
//     <noscript class="g">: without JavaScript its articles are ordinary
//     HTML, and the groups come in path order, so the path reads in
//     order; with JavaScript the whole group is one text node, which
//     costs the browser next to nothing to parse and nothing to lay out.
//     A group's data-map names the entries it holds and the length of each
//     one's article in its text (UTF-16 code units, as JavaScript counts).
//     - the entries off the path, gzipped in "chunks", each an inert
//     <script type="application/x-piexport-pack"> in base64, with a map
//     of the byte lengths of its entries' articles.
//     After each block comes <script>piexportPage.arrived()</script>, one
//     fixed text allowed by its hash, which tells the script the block is
//     whole.
//     The blocks come in the order a reader needs them: first copies of
//     the groups that end the path in view (up to 256 KB of them, hidden:
//     a browser without JavaScript shows the groups in their place), which
//     the script draws at once (5 above); then the chunks, so that a link
//     to another branch is followed as soon as the leaf shows; then the
//     groups of the path in order; last the sub-agents' transcripts,
//     packed.
//  8. For a browser without JavaScript, a <noscript> list of the entries
//     of the path in view, each a link to its entry, which takes the
//     sidebar's place.
//
// What is made later, and when:
//
//   - The tree's rows are drawn for the part of the tree in view only (a
//     virtual list of fixed-height rows over the index): filters, search
//     and folding decide which rows exist, the layout of the lines and
//     the ARIA level, set size and position are worked out for all of
//     them, but only some thirty rows are elements.
//   - The path is a virtual list too: an element per entry near the
//     viewport, made from its block's text when the reader comes near
//     it and dropped when the reader has gone far, with spacers above
//     and below whose heights are the other entries' measured heights,
//     or estimates until they have been drawn; the scroll position is
//     held on the entry in view whenever heights change. An entry whose
//     block has not arrived yet is a placeholder of its estimated
//     height, filled in when it arrives.
//   - Long outputs fold behind "N more lines"; the folded lines stay
//     text (between <!--piexport:fold--> marks) until the fold is opened.
//   - A chunk is unpacked (DecompressionStream) the first time one of its
//     entries is needed.
//   - The tree's full-text search reads the articles' text from the
//     blocks the page carries, a slice at a time, the first time it is
//     used: the page holds no second copy of the text for it.
//
// Without JavaScript the groups are the page: the path in view reads in
// full, and prints. A group out of view is left out of layout until it
// is seen (content-visibility), or the layout of a long path, redone as
// the parser adds to it, keeps the page from ever finishing its load. With JavaScript, printing first draws the whole path; on a
// long path, Ctrl+P asks first whether to print the entries on screen,
// the part around the entry in view, or everything.
//
// # Memory while exporting
//
// The page is streamed: entries are rendered on every core a little
// ahead of the writer, in the order the file needs them, and each block
// is written and dropped once full. Only the index is built for the whole
// session before writing starts. The session can be loaded with its text
// left in the file (session.LoadOptions.Lean): its entries then keep
// where they are in the file, and the renderers read each entry's text
// when they render it (Session.Full), so the export's memory is the
// tree, one window of entries in flight and one block.
package page
