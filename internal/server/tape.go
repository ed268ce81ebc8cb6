package server

import (
	"encoding/json"
	"path"
	"slices"
	"strings"

	"github.com/rootbound/rootbound/internal/ignore"
	"github.com/rootbound/rootbound/internal/nofollow"
	"github.com/rootbound/rootbound/internal/walk"
	"github.com/rootbound/rootbound/protocol"
)

// A tape is a walk recorded whole, kept with a fed index (indexed.go) for
// the greps after it that would walk the same way: what the walk did to
// the call (the files it handed on, the ignore files' bytes and problems,
// its counts at each file and at its end) in order, so a grep replays it
// instead of listing every directory and matching every entry again, and
// ends where, and with the counts, the walk would have. A change the feed
// names that is more than a file's contents (an entry made, removed or
// renamed, a directory, an ignore file) drops a root's tapes.
type tape struct {
	events  []tapeEvent
	end     tapeCounts // at the walk's end
	entries int64      // entries the walk visited
	held    int64      // about what it holds (cost)
	files   map[string]bool
	// counts are the walk's counts now, while the tape is being recorded.
	counts func() tapeCounts
}

// tapeEvent is one thing the walk did: a file handed on (tpath set), an
// ignore file's bytes (bytes), or a problem (display set).
type tapeEvent struct {
	rel, tpath string
	entry      *indexed // the index's entry of the file, once a replay looked it up
	bytes      int64
	display    string
	message    string
	at         tapeCounts
}

// tapeCounts are the walk's counts at a moment.
type tapeCounts struct {
	entries                        int64
	dirs, files, symlink, special  int64
	ignored, hidden, denied, unrdb int64
}

// maxTapes bounds the tapes a root keeps (each a walk's files: on a tree
// of 20,000 files, about 3 MB).
const maxTapes = 4

// tapeKey is what decides a walk: the tool (a grep's globs take files
// over ignore files, a glob's do not), its scope, what picks its files
// (globs, for a glob its exclusions and their case), the root's policy,
// and the size cap (an ignore file over it is a problem). A glob's own
// pattern is not in it: it is matched against what the walk hands on.
func tapeKey(c *call, sc scope, tool string, p pick, globs ...any) string {
	b, _ := json.Marshal(struct {
		Tool          string
		Rel           string
		File          bool
		Globs         []any
		Type, TypeNot []string
		MaxDepth      int
		NoIgnore      bool
		Hidden        *bool
		Policy        *protocol.RootPolicy
		MaxSize       int64
	}{tool, sc.rel, sc.file, globs, p.types, p.typesNot, p.maxDepth, p.noIgnore, p.hidden, policy(c.policy, sc.root.Name), c.maxSize})
	return string(b)
}

func (c *call) counts(w *walk.Walker) tapeCounts {
	sk := &c.done.Skipped
	return tapeCounts{entries: c.entries, dirs: w.Dirs, files: w.Files, symlink: w.Symlink, special: w.Special,
		ignored: sk.Ignored, hidden: sk.Hidden, denied: sk.Denied, unrdb: sk.Unreadable}
}

// restore sets the call's and the walker's counts to those of a moment
// of the walk; files' own unreadable count (unrdb, beyond the walk's) is
// the caller's to add.
func (c *call) restore(w *walk.Walker, at tapeCounts, filesUnreadable int64) {
	sk := &c.done.Skipped
	c.entries = at.entries
	w.Dirs, w.Files, w.Symlink, w.Special = at.dirs, at.files, at.symlink, at.special
	sk.Ignored, sk.Hidden, sk.Denied, sk.Unreadable = at.ignored, at.hidden, at.denied, at.unrdb+filesUnreadable
}

// walkTaped walks sc: by a tape of the same walk (key) when the root's fed
// index has one, else for real, recording a tape when it can. gi is a
// grep's use of the index, or nil. Only the walk's files are taped: a walk
// that hands on directories or links (a glob's entry_type) walks.
func (s *Server) walkTaped(c *call, sc scope, w *walk.Walker, key string, gi *grepIndex) error {
	ri := s.indexes[sc.root.Name]
	if ri == nil || !ri.fed || c.shard != nil || c.entries != 0 || w.Dir != nil || w.Link != nil {
		return sc.walk(w)
	}
	if t := ri.tapes[key]; t != nil && (c.maxEntries == 0 || t.entries <= c.maxEntries) {
		ri.replays++
		return t.replay(c, w, ri, gi)
	}
	t := &tape{files: map[string]bool{}}
	file := w.File
	ended := false
	unreadable := int64(0) // files' own, beyond the walk's
	t.counts = func() tapeCounts {
		at := c.counts(w)
		at.unrdb -= unreadable
		return at
	}
	w.File = func(rel, tpath string) error {
		t.events = append(t.events, tapeEvent{rel: rel, tpath: tpath, at: t.counts()})
		t.files[tpath] = true
		before := c.done.Skipped.Unreadable
		c.tape = nil
		err := file(rel, tpath)
		c.tape = t
		// The file's entry as the search left it, so the first replay
		// needs no lookup (an index request's walk made it).
		t.events[len(t.events)-1].entry = ri.files[tpath]
		unreadable += c.done.Skipped.Unreadable - before
		ended = ended || err != nil
		return err
	}
	c.tape = t
	err := sc.walk(w)
	c.tape = nil
	if err != nil || ended {
		return err
	}
	t.end = t.counts()
	t.entries = c.entries
	t.counts = nil
	if ri.tapes == nil {
		ri.tapes = map[string]*tape{}
	}
	if len(ri.tapes) >= maxTapes {
		ri.dropTapes()
	}
	if t.held = t.cost(); ri.used()+t.held <= ri.max {
		ri.tapes[key] = t
		ri.taped += t.held
	}
	return nil
}

// cost is about what a tape holds: each event, its paths and its file's
// place in files.
func (t *tape) cost() int64 {
	n := int64(0)
	for i := range t.events {
		ev := &t.events[i]
		n += int64(len(ev.rel)+len(ev.display)+len(ev.message)) + 200
		if ev.tpath != ev.rel {
			n += int64(len(ev.tpath))
		}
	}
	return n
}

// dropTapes forgets every tape.
func (ri *rootIndex) dropTapes() {
	clear(ri.tapes)
	ri.taped = 0
}

// taped records what the walk does to the call outside a file's search:
// an ignore file's bytes, a problem.
func (t *tape) taped(ev tapeEvent) {
	ev.at = t.counts()
	t.events = append(t.events, ev)
}

// replay does to the call what the walk did, in order, and ends where it
// would have: at a file whose search ends the call (max results, the
// budget), or at an ignore file's bytes past the byte budget.
func (t *tape) replay(c *call, w *walk.Walker, ri *rootIndex, gi *grepIndex) error {
	var own int64 // unreadable files found by the searches
	for i := 0; i < len(t.events); i++ {
		if gi != nil {
			if j := t.passOver(i, c, w, ri, gi, own); j > i {
				i = j - 1
				continue
			}
		}
		ev := &t.events[i]
		if err := c.meter.Spend(int(ev.at.entries-c.entries) * entryCost); err != nil {
			return err
		}
		c.restore(w, ev.at, own)
		switch {
		case ev.tpath != "":
			if gi != nil {
				// The file's entry, looked up once for every replay: a
				// map lookup a file was most of a replay's cost.
				if ev.entry == nil || ev.entry.gone {
					ev.entry = ri.files[ev.tpath]
				}
				gi.hint = ev.entry
			}
			before := c.done.Skipped.Unreadable
			err := w.File(ev.rel, ev.tpath)
			own += c.done.Skipped.Unreadable - before
			if err != nil {
				if err == walk.SkipAll {
					return nil
				}
				return err
			}
		case ev.display != "":
			c.done.Skipped.Unreadable++
			if err := c.record(ev.display, protocol.SkippedUnreadable, ev.message); err != nil {
				return err
			}
		default:
			if err := c.addBytes(ev.bytes); err != nil {
				return err
			}
		}
	}
	c.restore(w, t.end, own)
	return nil
}

// passOver does to the call what the searches of the files from event i on
// would, as long as the index rules each out (grepIndex.ruledOut): each
// counts as read, its size against the byte budget, and nothing else
// happens. It returns the event after them: i when there is none, or when
// their bytes would pass the byte budget (then each file's search says
// where it ends). A file at a time, that was most of a repeat grep of a
// tree of 100,000 files (RATIONALE.md, "Why replay a recorded walk?").
func (t *tape) passOver(i int, c *call, w *walk.Walker, ri *rootIndex, gi *grepIndex, own int64) int {
	j, n := i, int64(0)
	for ; j < len(t.events); j++ {
		ev := &t.events[j]
		if ev.tpath == "" {
			break
		}
		if ev.entry == nil || ev.entry.gone {
			ev.entry = ri.files[ev.tpath]
		}
		if !gi.ruledOut(ev.entry, c.maxSize) {
			break
		}
		n += ev.entry.size
	}
	if j == i || c.maxBytes > 0 && c.done.Stats.BytesRead+n > c.maxBytes {
		return i
	}
	last := &t.events[j-1]
	if err := c.meter.Spend(int(last.at.entries-c.entries) * entryCost); err != nil {
		return i // the file's own replay ends the call there
	}
	c.restore(w, last.at, own)
	c.done.Stats.FilesRead += int64(j - i)
	c.done.Stats.BytesRead += n
	ri.passed += j - i
	return j
}

// stale drops the tapes of a root where the feed named more than the
// contents of files a tape handed on: anything else may change a walk.
func (ri *rootIndex) stale(tree *nofollow.Tree, paths []string, all bool) {
	if len(ri.tapes) == 0 {
		return
	}
	if all {
		ri.dropTapes()
		return
	}
	for _, p := range paths {
		name := path.Base(p)
		if p == "" || slices.Contains(ignore.Files[:], name) || slices.ContainsFunc(strings.Split(p, "/"), protocol.IsDotGit) {
			ri.dropTapes()
			return
		}
		st, err := tree.Lstat(p)
		if err != nil || st.Type != nofollow.File {
			ri.dropTapes()
			return
		}
		for _, t := range ri.tapes {
			if !t.files[p] {
				ri.dropTapes()
				return
			}
		}
	}
}
