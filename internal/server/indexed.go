package server

import (
	"bytes"
	"errors"
	"runtime"
	"strings"
	"time"

	"github.com/rootbound/rootbound/internal/index"
	"github.com/rootbound/rootbound/internal/match"
	"github.com/rootbound/rootbound/internal/nofollow"
	"github.com/rootbound/rootbound/internal/search"
	"github.com/rootbound/rootbound/protocol"
)

// A rootIndex is the module's index of one root's contents, kept from the
// index request that built it for the greps after it: a trigram index of
// each file's text as a grep searches it, and what the file was when it
// was read. A grep passes over a file the index says cannot match only
// when the file is still what was read: the same size, modification and
// change times and inode (a write changes the change time, which no call
// can set back), so its answer is the one it would give by reading it.
type rootIndex struct {
	ix    *index.Index
	files map[string]*indexed // by path below the root
	max   int64               // the memory cap, of the index, its files and its tapes
	full  bool                // the cap was reached: no more files are added
	// text is what the files added held: the index holds at most three
	// quarters of it and textFloor, so its cap follows the tree's size,
	// whatever max allows.
	text int64
	// held and taped are about what the files' entries and the tapes kept
	// hold, beside the index's own bytes: all of it counts against max
	// (on a tree of 112,000 files they are about 20 and 35 MB a tape;
	// counted out, they took an instance past its memory cap).
	held, taped int64
	// fed: the host's change feed follows the root (IndexArgs.Fed), so a
	// trusted entry is the file as it is, with no look at it.
	fed bool
	// passed counts the files greps passed over, for tests.
	passed int
	// tapes are walks recorded whole (tape.go), by what decides them.
	tapes map[string]*tape
	// replays counts the greps that replayed a tape, for tests.
	replays int
	// dirty: an entry was added or forgotten since the index was loaded
	// from a saved one (persist.go), so a save has something new to say.
	dirty bool
}

// indexed is a file as it was read and indexed.
type indexed struct {
	doc          index.Doc
	size         int64
	mtime, ctime int64
	ino, nlink   uint64
	// binary: it has a NUL in its first bytes (protocol.BinarySniffBytes),
	// found when read bytes had been read; it has no document.
	binary bool
	read   int64
	// gone: the index has forgotten it (the file changed, and a newer
	// entry, or none, replaced it); a tape's reference to it is stale.
	gone bool
	// trusted: the change feed has named nothing of it since it was read
	// or last looked at (fed roots only).
	trusted bool
	// unseen: loaded from a saved index (persist.go), and not yet found
	// as it was by the walk of the index request that loaded it.
	unseen bool
}

// textFloor is what a root's index may hold whatever its text: the files'
// entries of a tree of many small files take more than their text. (A
// variable for tests.)
var textFloor int64 = 64 << 20

// racy is how recent a change may be for a file's index entry to be
// trusted: a file changed within it of its read may change again within
// the file system's clock tick (the kernel's coarse clock: a few
// milliseconds; 2 s on some file systems) with the same times and size, as
// git's "racily clean" entries may. Such a file is read by every grep until
// a read sees it older.
const racy = 3 * time.Second

// same reports whether st is the file entry e was made from.
func (e *indexed) same(st nofollow.Stat) bool {
	return st.Type == nofollow.File && st.Size == e.size && st.Mtime == e.mtime && st.Ctime == e.ctime && st.Ino == e.ino
}

// add indexes a file read at time now, as st, replacing what the index
// had of it; a file changed too recently to be trusted, or past the cap,
// is left out (read by every grep).
func (ri *rootIndex) add(tpath string, data []byte, st nofollow.Stat, now time.Time) {
	ri.text += int64(len(data))
	if e := ri.entry(tpath, st, len(data), now); e != nil {
		e.doc = ri.ix.Add(data)
		ri.keep(tpath, e)
	}
}

// keep adds e, a file's entry, to files.
func (ri *rootIndex) keep(tpath string, e *indexed) {
	ri.files[tpath] = e
	ri.held += fileCost(tpath)
}

// fileCost is about what a file's entry holds: its path, the entry, and
// the map's share.
func fileCost(tpath string) int64 { return int64(len(tpath)) + 160 }

// used is what the root's index holds in all: the index, the files' entries
// and the tapes kept.
func (ri *rootIndex) used() int64 { return int64(ri.ix.Bytes()) + ri.held + ri.taped }

// addBinary records a file found binary once read bytes were read, as
// add records a text file.
func (ri *rootIndex) addBinary(tpath string, read int64, st nofollow.Stat, now time.Time) {
	if e := ri.entry(tpath, st, 0, now); e != nil {
		e.binary, e.read = true, read
		ri.keep(tpath, e)
	}
}

// entry forgets what the index had of tpath and returns an entry for it as
// st, or nil when it is not to be indexed: changed too recently to be
// trusted, or past the cap, or its text (size bytes, about the most its
// trigrams can add) would take the index past its share of the tree's.
func (ri *rootIndex) entry(tpath string, st nofollow.Stat, size int, now time.Time) *indexed {
	ri.dirty = true
	if old, ok := ri.files[tpath]; ok {
		if !old.binary {
			ri.ix.Remove(old.doc)
		}
		old.gone = true
		delete(ri.files, tpath)
		ri.held -= fileCost(tpath)
	}
	if ri.full || st.Ctime > now.Add(-racy).UnixNano() || st.Mtime > now.Add(-racy).UnixNano() {
		return nil
	}
	if ri.used()-ri.taped > ri.max-ri.max/4 { // a quarter is the tapes'
		ri.full = true
		return nil
	}
	if ri.used()-ri.taped+int64(size) > textFloor+ri.text/4*3 {
		return nil // dense text (random bytes): left out, and the files after it may be in
	}
	// A file of more than one name can change through a name in a
	// directory the feed does not see: it is looked at every time.
	trusted := ri.fed && st.Nlink == 1
	return &indexed{size: st.Size, mtime: st.Mtime, ctime: st.Ctime, ino: st.Ino, nlink: st.Nlink, trusted: trusted}
}

// forgetUnseen forgets the loaded entries the index request's walk did
// not find as they were: files gone, or no longer walked.
func (ri *rootIndex) forgetUnseen() {
	for p, e := range ri.files {
		if !e.unseen {
			continue
		}
		if !e.binary {
			ri.ix.Remove(e.doc)
			ri.text -= e.size
		}
		e.gone = true
		delete(ri.files, p)
		ri.held -= fileCost(p)
		ri.dirty = true
	}
}

// changed marks what the host's change feed named as no longer trusted:
// the next grep that takes such a file looks at it.
func (s *Server) changed(changes []protocol.RootChanges) {
	for _, rc := range changes {
		ri := s.indexes[rc.Root]
		if ri == nil {
			continue
		}
		dirs := map[string]bool{} // paths that are no file indexed: maybe directories
		all := rc.All
		for _, p := range rc.Paths {
			if p == "" { // the root itself
				all = true
			}
			if e, ok := ri.files[p]; ok {
				e.trusted = false
			} else {
				dirs[p] = true
			}
		}
		if len(ri.tapes) > 0 {
			if sc, perr := s.scope(rc.Root); perr == nil {
				ri.stale(sc.tree, rc.Paths, all)
				sc.close()
			} else {
				ri.dropTapes()
			}
		}
		if !all && len(dirs) == 0 {
			continue
		}
		for p, e := range ri.files {
			if !e.trusted {
				continue
			}
			under := all
			for d := p; !under; {
				i := strings.LastIndexByte(d, '/')
				if i < 0 {
					break
				}
				d = d[:i]
				under = dirs[d]
			}
			if under {
				e.trusted = false
			}
		}
	}
}

// A grepIndex is one grep's use of a root's index: the files its pattern
// may match.
type grepIndex struct {
	ri    *rootIndex
	cands []uint64 // bit d: document d may match
	docs  index.Doc
	now   time.Time
	// hint is the entry of the file pass is asked of next, when a replayed
	// walk knows it (tape.go); nil: pass looks it up.
	hint *indexed
}

// useIndex returns the grep's use of the index of sc's root, or nil when
// the root has none or the grep cannot use it: an inverted search takes
// the lines that do not match, files_without_match the files that do not,
// and a pattern with no literal to look up may match anything.
func (s *Server) useIndex(sc scope, m match.Matcher, a *protocol.GrepArgs) *grepIndex {
	ri := s.indexes[sc.root.Name]
	if ri == nil || a.Invert || a.OutputMode == protocol.ModeFilesWithout {
		return nil
	}
	q := index.Literals(match.Required(m))
	if q.IsAll() {
		return nil
	}
	docs, _ := ri.ix.Candidates(q)
	g := &grepIndex{ri: ri, docs: index.Doc(ri.ix.Docs()), now: s.now()}
	g.cands = make([]uint64, (ri.ix.Docs()+63)/64)
	for _, d := range docs {
		g.cands[d/64] |= 1 << (d % 64)
	}
	return g
}

// A verdict is what the index says of a file a grep takes.
type verdict uint8

const (
	readIt     verdict = iota // read and search it
	noMatch                   // it cannot match: as read, and nothing found
	binaryFile                // it is binary: as read and skipped
)

// pass says what the index knows of the file at tpath, when it is as it
// was indexed: that its text holds none of what a match needs, or that it
// is binary (unless the grep searches binary files as text, which reads
// it); n is what reading it would have read (its size, or the bytes read
// until its NUL). known says whether the index has the file as it is now
// (false: it is indexed again once read).
func (g *grepIndex) pass(t *nofollow.Tree, tpath string, maxSize int64, text bool) (v verdict, n int64, known bool) {
	e := g.hint // the entry of the file a replayed walk hands on (tape.go)
	g.hint = nil
	if e == nil || e.gone {
		e = g.ri.files[tpath]
	}
	if e == nil {
		return readIt, 0, false
	}
	if !e.trusted {
		st, err := t.Lstat(tpath)
		if err != nil || !e.same(st) {
			return readIt, 0, false
		}
		if g.ri.fed && e.nlink == 1 {
			e.trusted = true // as it was, and the feed will name any change
		}
	}
	switch {
	case e.size > maxSize:
		return readIt, 0, true
	case e.binary && text:
		return readIt, 0, true
	case e.binary:
		g.ri.passed++
		return binaryFile, e.read, true
	case e.doc >= g.docs || g.cands[e.doc/64]&(1<<(e.doc%64)) != 0:
		return readIt, 0, true
	}
	g.ri.passed++
	return noMatch, e.size, true
}

// ruledOut says whether pass would say noMatch of e, the entry of a file a
// replayed walk hands on, without looking at the file: the feed has named
// nothing of it since, and its text holds none of what a match needs.
func (g *grepIndex) ruledOut(e *indexed, maxSize int64) bool {
	return e != nil && !e.gone && e.trusted && !e.binary && e.size <= maxSize && e.doc < g.docs && g.cands[e.doc/64]&(1<<(e.doc%64)) == 0
}

// index builds the index of the roots a request names (every root when
// none), replacing what the module had of them.
func (s *Server) index(c *call, a *protocol.IndexArgs) {
	if c.err = a.CheckLists(); c.err != nil {
		return
	}
	names := a.Roots
	if len(names) == 0 {
		for _, r := range s.roots {
			names = append(names, r.Name)
		}
	}
	if a.MaxBytes < 0 {
		c.err = protocol.NewError(protocol.CodeInvalidArgument, "max_bytes must not be negative")
		return
	}
	maxBytes := a.MaxBytes
	if maxBytes == 0 {
		maxBytes = protocol.DefaultIndexBytes
	}
	c.max = protocol.MaxResultsCeiling
	var scopes []scope
	defer func() {
		for _, sc := range scopes {
			sc.close()
		}
	}()
	for _, name := range names {
		sc, perr := s.scope(name)
		if perr == nil && sc.rel != "" {
			sc.close()
			perr = protocol.NewError(protocol.CodeInvalidArgument, "index: "+name+" is not a root")
		}
		if perr != nil {
			c.err = perr
			return
		}
		scopes = append(scopes, sc)
	}
	c.started = true
	if s.indexes == nil {
		s.indexes = map[string]*rootIndex{}
	}
	loads := s.loads
	s.loads = nil // pieces are for the next index request only
	r := &s.reader
	r.BeforeGrow = func() { _ = c.bw.Flush() }
	defer func() { r.BeforeGrow = nil }()
	for _, sc := range scopes {
		delete(s.indexes, sc.root.Name)
		wh, perr := s.newWhich(c, sc, pick{}, nil, false, policy(c.policy, sc.root.Name))
		if perr != nil {
			c.err = perr
			return
		}
		ri := &rootIndex{ix: index.New(), files: map[string]*indexed{}, max: maxBytes, fed: a.Fed}
		loaded := false
		if pieces := loads[sc.root.Name]; a.Load && pieces != nil {
			b := bytes.Join(pieces, nil)
			delete(loads, sc.root.Name)
			if lri, err := decodeRoot(b, maxBytes, a.Fed); err == nil {
				ri, loaded = lri, true
			}
		}
		now := s.now()
		w := wh.walker()
		w.File = func(rel, tpath string) error {
			if e := ri.files[tpath]; e != nil && e.unseen {
				// Loaded: kept when a look finds the file as it was.
				if st, err := sc.tree.Lstat(tpath); err == nil && e.same(st) {
					e.unseen = false
					e.trusted = ri.fed && e.nlink == 1
					if e.binary {
						c.done.Skipped.Binary++
					}
					return nil
				}
			}
			data, n, err := r.Read(sc.tree, tpath, c.maxSize, protocol.BinarySniffBytes, c.meter)
			c.done.Stats.FilesRead++
			if berr := c.addBytes(n); berr != nil {
				return berr
			}
			switch {
			case c.meter.Err() != nil:
				return c.meter.Err()
			case errors.Is(err, search.ErrBinary):
				ri.addBinary(tpath, n, r.Stat, now)
				c.done.Skipped.Binary++
			case errors.Is(err, search.ErrTooLarge):
				c.done.Skipped.TooLarge++
			case errors.Is(err, search.ErrSpecial):
				c.done.Skipped.Special++
			case err != nil:
				c.done.Skipped.Unreadable++
			default:
				ri.add(tpath, bytes.TrimPrefix(data, utf8BOM), r.Stat, now)
			}
			return nil
		}
		// The walk is a grep's with no arguments, recorded (on a fed root)
		// for the greps after it to replay: the first grep of a new
		// process walks no more than the ones after it. A tape's counts
		// are the call's from zero, so each root's walk starts there.
		sk, entries := c.done.Skipped, c.entries
		c.done.Skipped, c.entries = protocol.Skipped{}, 0
		s.indexes[sc.root.Name] = ri
		err := s.walkTaped(c, sc, w, tapeKey(c, sc, "grep", pick{}, protocol.Strings(nil), protocol.Strings(nil)), nil)
		c.entries += entries
		c.done.Skipped.Add(sk)
		c.done.Stats.Dirs += w.Dirs
		c.done.Stats.Files += w.Files
		c.done.Skipped.Symlink += w.Symlink
		c.done.Skipped.Special += w.Special
		if err != nil {
			delete(s.indexes, sc.root.Name)
			c.err = protocol.AsError(err)
			return
		}
		if loaded {
			ri.forgetUnseen()
		}
		ri.ix.Freeze()
		// The lists just frozen are garbage as large as the index: freed
		// now, before a save or a grep allocates beside them (the index
		// instance of the 1 GB tree reached its memory cap there).
		runtime.GC()
		c.done.Results += len(ri.files)
		c.done.Truncated = c.done.Truncated || ri.full
		if a.Save && (!loaded || ri.dirty) {
			if err := c.save(sc.root.Name, ri); err != nil {
				return
			}
		}
	}
}
