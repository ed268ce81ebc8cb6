package host

import (
	"cmp"
	"encoding/json"
	"os"

	"github.com/rootbound/rootbound/internal/index"
	"github.com/rootbound/rootbound/internal/match"
	"github.com/rootbound/rootbound/protocol"
)

// An indexer is a Runner's index instance (WithIndex): one more instance
// of the module, which builds the index of the roots' contents in the
// background and then answers the greps it is free for (the others run
// as without it). Its fields are under the Runner's mu.
type indexer struct {
	inst  *instance // nil when none runs
	ready bool      // its index is built
	busy  bool      // a call holds it
	calls int       // calls it answered, for tests
	// read and files are the files its build read and walked (a build
	// from the index cache reads only what changed), for tests.
	read, files int64
	// feeds follow the roots (by root, in order) when every root has
	// one: the greps sent to inst carry what they say changed.
	feeds []*feed
}

// closeFeeds closes the index's change feeds; r.mu must be held.
func (r *Runner) closeFeeds() {
	for _, f := range r.ix.feeds {
		f.close()
	}
	r.ix.feeds = nil
}

// feedRoots starts a change feed for every root, or none.
func (r *Runner) feedRoots() []*feed {
	var feeds []*feed
	for _, dirs := range r.hostDirs {
		f, err := newFeed(dirs[len(dirs)-1])
		if err != nil {
			for _, f := range feeds {
				f.close()
			}
			return nil
		}
		feeds = append(feeds, f)
	}
	return feeds
}

// changes is what the change feeds say changed since the last grep sent
// to the index instance, for the next; nil without feeds. The caller
// holds the index instance.
func (r *Runner) changes() []protocol.RootChanges {
	r.mu.Lock()
	feeds := r.ix.feeds
	r.mu.Unlock()
	var out []protocol.RootChanges
	for i, f := range feeds {
		paths, all := f.take()
		if all || len(paths) > 0 {
			out = append(out, protocol.RootChanges{Root: r.cfg.roots[i].Name, Paths: paths, All: all})
		}
	}
	return out
}

// startIndex starts an index instance and its build; r.mu must be held.
func (r *Runner) startIndex() {
	if r.closed {
		return
	}
	inst := r.start(r.cfg.indexMemory())
	r.ix = indexer{inst: inst}
	go r.build(inst)
}

// lostIndex forgets an index instance that was stopped or died; r.mu
// must be held. A built index lost (a call on it was cancelled or ran out
// of time, which ends its instance) is built again; a build that failed is
// not tried again.
func (r *Runner) lostIndex(inst *instance) {
	inst.stop()
	if r.ix.inst != inst {
		return
	}
	wasReady := r.ix.ready
	r.closeFeeds()
	r.ix.inst, r.ix.ready, r.ix.busy = nil, false, false
	if wasReady {
		r.startIndex()
	}
}

// build sends the index request to inst and waits for its answer. While
// calls run, the build waits (inst's clock holds it at its next look,
// within a millisecond or so of work): it never takes a core from a call.
func (r *Runner) build(inst *instance) {
	select {
	case <-inst.ready:
	case <-inst.exited:
		r.mu.Lock()
		r.lostIndex(inst)
		r.mu.Unlock()
		return
	}
	inst.clock.hold(func() bool { return len(r.slots) > 0 })
	// The feeds watch every directory before the build reads a file.
	feeds := r.feedRoots()
	r.mu.Lock()
	if r.closed || r.ix.inst != inst {
		for _, f := range feeds {
			f.close()
		}
		r.mu.Unlock()
		return
	}
	r.ix.feeds = feeds
	r.mu.Unlock()
	// The index cache's files first (a build of only what changed), and
	// the index saved after it.
	loaded, err := r.loadCache(inst)
	save := &cacheWriter{r: r, files: map[string]*os.File{}, paths: map[string]string{}}
	req := protocol.Request{V: protocol.Version, ID: "index", Policy: r.policy,
		Index: &protocol.IndexArgs{MaxBytes: r.cfg.indexCap(), Fed: feeds != nil, Load: loaded, Save: r.indexCache != ""}}
	var done *protocol.Done
	if err == nil {
		done, err = exchange(inst, &req, func(l *protocol.Line) error {
			if l.Saved == nil {
				return nil
			}
			return save.write(l.Saved)
		})
	}
	ok := err == nil && done.Status == protocol.StatusComplete
	save.finish(ok)
	if r.indexCache != "" {
		trim(r.indexCache, cmp.Or(r.cfg.cacheLimit, DefaultIndexCacheLimit))
	}
	inst.clock.hold(nil)
	r.mu.Lock()
	defer r.mu.Unlock()
	if !ok || r.closed || r.ix.inst != inst {
		r.lostIndex(inst)
		return
	}
	r.ix.ready = true
	r.ix.read, r.ix.files = done.Stats.FilesRead, done.Stats.Files
}

// indexFor says whether req goes to the index instance when it is built
// and free: a glob (it replays walks there), and a grep the index narrows
// or that would run on one instance anyway (it replays walks too).
func (r *Runner) indexFor(req *protocol.Request) bool {
	switch {
	case req.Glob != nil:
		return true
	case req.Grep == nil || !r.Indexed():
		return false
	}
	return r.shards(req) == 1 || r.narrows(req.Grep)
}

// narrows reports whether the index can narrow the files a grep reads, as
// the module decides it (internal/server's useIndex): not for an inverted
// search or files_without_match, nor for a pattern with no literal to look
// up. Such a grep reads every file with or without the index, on one
// instance there: where it can be split across instances, it is
// (BENCHMARKS.md, "Issue 50: every pattern": 1.3-1.9x slower on the index
// instance). A pattern that does not compile is the module's to refuse.
// A compile costs up to a third of a millisecond (\w's Unicode class;
// internal/match's BenchmarkCompile): the answer is kept by pattern.
func (r *Runner) narrows(g *protocol.GrepArgs) bool {
	if g.Invert || g.OutputMode == protocol.ModeFilesWithout {
		return false
	}
	patterns := append([]string{g.Pattern}, g.Patterns...)
	opts := match.Options{Literal: g.Literal, Case: string(g.Case), Word: g.Word, CRLF: g.CRLF, Multiline: g.Multiline}
	key, _ := json.Marshal(struct {
		P []string
		O match.Options
	}{patterns, opts})
	if n, ok := r.narrowed.load(string(key)); ok {
		return n
	}
	m, err := match.Compile(patterns, opts)
	n := err != nil || !index.Literals(match.Required(m)).IsAll()
	r.narrowed.store(string(key), n)
	return n
}

// takeIndexed takes a slot and the index instance when its index is built
// and no call holds it; nil otherwise (the call runs as without it). Greps
// and globs go there: both replay the walks it keeps.
func (r *Runner) takeIndexed() *instance {
	r.mu.Lock()
	free := r.ix.ready && !r.ix.busy
	r.mu.Unlock()
	if !free {
		return nil
	}
	select {
	case r.slots <- struct{}{}:
	default:
		return nil // every slot is taken: wait as any call does
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || !r.ix.ready || r.ix.busy || r.ix.inst.dead() {
		<-r.slots
		return nil
	}
	r.ix.busy = true
	r.ix.calls++
	return r.ix.inst
}

// Indexed reports whether the Runner's index (WithIndex) is built and
// its instance running: greps may use it from now on.
func (r *Runner) Indexed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ix.ready
}
