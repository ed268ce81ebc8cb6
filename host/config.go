package host

import (
	"cmp"
	"maps"
	"os"
	"runtime"
	"slices"
	"time"

	"github.com/rootbound/rootbound/protocol"
)

// Config says what a Runner may read and how far a call may go. It is
// immutable: each With method returns a changed copy, and never fails;
// NewRunner validates the whole.
type Config interface {
	// WithRoot adds a readable root: name is the path the module and every
	// result use (an absolute, clean path such as "/workspace"), dir the host
	// directory behind it. The first root is the default one.
	WithRoot(name, dir string) Config
	// WithRootDir adds a readable root as WithRoot does, given as a
	// directory the caller has opened: the Runner opens the directory
	// through that descriptor ("." below it), never by a name, so a path
	// whose components are swapped for links or other directories after
	// the caller opened it (another process racing it) changes nothing.
	// The rootbound command opens each PATH a component at a time, no
	// link followed, and hands it here. dir stays the caller's to close.
	WithRootDir(name string, dir *os.File) Config
	// WithTimeout sets the deadline of a call (default 20 s, as agents'
	// grep tools use). A caller's context may end a call sooner.
	WithTimeout(time.Duration) Config
	// WithBudget bounds the directory entries a call visits and the file
	// bytes it reads (defaults 2,000,000 and 2 GiB; 0 means no bound).
	WithBudget(entries, bytes int64) Config
	// WithMaxFileSize skips files larger than n bytes (default 8 MiB; at most
	// protocol.MaxFileSizeCeiling, 1 GiB, as a file is read whole).
	WithMaxFileSize(n int64) Config
	// WithMemoryLimit caps each module instance's memory (default 256 MiB;
	// the index instance's is larger, WithIndex).
	// An instance that reaches it dies; its call ends with CodeMemory and
	// the results found so far, and the instance is replaced.
	WithMemoryLimit(bytes uint64) Config
	// WithInstances sets how many calls may run at once, each on its own
	// warm instance (default 2, the cores of the machines we measure on).
	WithInstances(n int) Config
	// WithParallelism splits one grep over up to n instances, each
	// searching a share of the files on a core of its own, their answers
	// merged into exactly the answer one instance gives (order, counts,
	// truncation, next offset). The default is the CPUs this process may
	// use (runtime.GOMAXPROCS), at most what keeps WithInstances ×
	// parallelism × WithMemoryLimit within MemoryTotal; 1 runs every call
	// on one instance. A glob of files (in walk order) is split too, by
	// ranges of its walk only, once an earlier glob of the same walk said
	// where its files lie: its cost is the walk, which a split by files
	// would repeat.
	WithParallelism(n int) Config
	// WithCacheDir sets the on-disk compilation cache (default: the first
	// of DefaultCacheDirs this user alone may write; "" disables it).
	WithCacheDir(dir string) Config
	// WithMaxResultBytes bounds what a Result holds, in bytes of the
	// module's result lines (default 32 MiB, about 100,000 content lines;
	// the Go values take about as much again), and what Serve sends of one
	// request. A call that reaches it is truncated, and its notice says
	// so. GlobEach and GrepEach hold nothing and are not bounded by it.
	WithMaxResultBytes(n int64) Config
	// WithMaxTextBytes sets the longest line a result carries whole
	// (default 300 bytes, so that one minified line cannot flood a
	// model's context); a longer one is cut to a window around its first
	// match, with "…" where bytes were cut. A program that prints lines
	// as rg does sets it to its file size cap.
	WithMaxTextBytes(n int64) Config
	// WithRootPolicy sets what the root named name lets calls see: hidden
	// files, a deny list, ignore rules from outside it (RootPolicy).
	WithRootPolicy(name string, p RootPolicy) Config
	// WithReadGuard sets a guard consulted before every call with what it
	// will read; a call it denies fails with CodeDenied (ReadGuard). Every
	// call of the library goes through it (Glob, Grep, their Each forms,
	// Prepared.Run, Tools.Call, the MCP server); Serve, which passes a
	// host's own protocol lines through, does not.
	WithReadGuard(ReadGuard) Config
	// WithAudit sets a function that receives a record of every call when
	// it ends (AuditRecord; its String is one line). It runs on the
	// goroutine of the call.
	WithAudit(func(AuditRecord)) Config
	// WithIndex keeps an index of the roots' contents inside one more
	// instance of the module, for a Runner that answers many greps (an
	// agent's session, a server): built in the background once the
	// Runner starts, paused while calls run, and used by the greps that
	// instance answers, which then read only the files that can match.
	// Answers are byte for byte those without it: a file changed since it
	// was indexed is read again (RATIONALE.md, "Why a trigram index inside
	// the module?"). Off by default; maxBytes caps what each root's index
	// holds (its trigrams, identifiers, files and recorded walks), at
	// most IndexCeiling (0: sized from the tree: what its text needs, up
	// to three quarters of it, within IndexCeiling). The index instance's memory cap is
	// WithMemoryLimit and twice that cap, committed only as it is used.
	WithIndex(on bool, maxBytes int64) Config
	// WithIndexCache keeps each root's index (WithIndex) in dir, a file a
	// root, so that a new Runner, in this process or another, builds only
	// what changed: it starts from the file, keeps a file's entry only
	// when a look at the file finds it as it was indexed (its size, times
	// and inode), reads what changed and forgets what is gone. A file
	// written by another build of the module or for another root, cut
	// short or changed, is ignored and the index built from the files.
	// dir is made with mode 0700 unless it is there, and is not used (a
	// Warnings entry says so) unless it is a directory of this user's
	// that no other user can open. Off by default ("").
	WithIndexCache(dir string) Config
	// WithLazyStart makes NewRunner return as soon as the configuration
	// is checked and the roots are open: the module is compiled (1–3 s
	// without the compilation cache) and the first instances started in
	// the background, and a call waits for them, within its deadline.
	// When the compilation cache does not hold the module yet, wazero's
	// interpreter answers calls meanwhile (a first call on a small tree
	// within half a second: `make bench -run start`), and a
	// call on it moves to a compiled instance once the module is compiled
	// (no line sent twice). A compile that fails fails every call with its
	// error; Close waits for a compile under way, which fills the cache. A
	// server that must answer its client at once (an MCP initialize), or a
	// program's first call, starts so.
	WithLazyStart(on bool) Config
	// WithIndexCacheLimit bounds what WithIndexCache's directory holds:
	// once a Runner has saved its roots' indexes, the files of the roots
	// used least recently (a Runner that loads or writes a root's file
	// marks it used) are removed until the directory's index files hold
	// at most n bytes; a root whose file was removed is indexed from its
	// files again. n <= 0: DefaultIndexCacheLimit.
	WithIndexCacheLimit(n int64) Config
	// WithDefaultSkips leaves out of every root, by default, the
	// directories of dependencies and caches that agents' tools skip even
	// where no ignore file names them (DefaultSkips: node_modules,
	// __pycache__, .venv), as ignore rules ranked below every ignore file
	// of the tree (a .gitignore's "!node_modules/" takes it back), counted
	// as ignored; a call's no_ignore takes them in. On by default;
	// WithDefaultSkips(false) turns it off (the rootbound command does, to
	// list what fd and rg list).
	WithDefaultSkips(on bool) Config
}

// DefaultSkips are the rules WithDefaultSkips applies to every root, in
// gitignore syntax.
const DefaultSkips = "node_modules/\n__pycache__/\n.venv/\n"

// defaultSkipsSource names DefaultSkips in an answer's notes.
const defaultSkipsSource = "the host's default skips (node_modules/, __pycache__/, .venv/)"

// root is a readable root.
type root struct {
	Name string // as the module and results show it
	Dir  string // on the host; never shown
	// File: the directory, opened (WithRootDir); nil: Dir is opened.
	File *os.File
}

type config struct {
	roots       []root
	timeout     time.Duration
	maxEntries  int64
	maxBytes    int64
	maxFileSize int64
	memory      uint64
	instances   int
	parallelism int // 0: the default, sized to the machine
	cacheDir    *string
	// maxResultBytes bounds the item lines a Result holds.
	maxResultBytes int64
	maxTextBytes   int64 // 0: the module's default
	// policies are the roots' policies, by root name.
	policies map[string]RootPolicy
	guard    ReadGuard
	audit    func(AuditRecord)
	// closeOnContextDone turns on wazero's own interruption, for the
	// benchmark that compares it with the clock's (never set otherwise).
	closeOnContextDone bool
	// index: keep an index of the roots' contents (WithIndex), of at most
	// indexBytes (0: sized from the tree, within IndexCeiling).
	index      bool
	indexBytes int64
	indexCache string // WithIndexCache's directory; "": none
	cacheLimit int64  // WithIndexCacheLimit's; 0: the default
	lazyStart  bool   // WithLazyStart
	// noDefaultSkips: WithDefaultSkips(false).
	noDefaultSkips bool
}

// NewConfig returns the default configuration, with no roots.
func NewConfig() Config {
	return &config{
		timeout:     20 * time.Second,
		maxEntries:  2_000_000,
		maxBytes:    2 << 30,
		maxFileSize: protocol.DefaultMaxFileSize,
		memory:      256 << 20,
		instances:   2,

		maxResultBytes: 32 << 20,
	}
}

func (c *config) clone() *config {
	n := *c
	n.roots = append([]root(nil), c.roots...)
	n.policies = maps.Clone(c.policies)
	return &n
}

func (c *config) WithRoot(name, dir string) Config {
	n := c.clone()
	n.roots = append(n.roots, root{Name: name, Dir: dir})
	return n
}

func (c *config) WithRootDir(name string, dir *os.File) Config {
	n := c.clone()
	r := root{Name: name, File: dir}
	if dir != nil {
		r.Dir = dir.Name()
	}
	n.roots = append(n.roots, r)
	return n
}

func (c *config) WithTimeout(d time.Duration) Config {
	n := c.clone()
	n.timeout = d
	return n
}

func (c *config) WithBudget(entries, bytes int64) Config {
	n := c.clone()
	n.maxEntries, n.maxBytes = entries, bytes
	return n
}

func (c *config) WithMaxFileSize(size int64) Config {
	n := c.clone()
	n.maxFileSize = size
	return n
}

func (c *config) WithMemoryLimit(bytes uint64) Config {
	n := c.clone()
	n.memory = bytes
	return n
}

func (c *config) WithInstances(k int) Config {
	n := c.clone()
	n.instances = k
	return n
}

func (c *config) WithParallelism(k int) Config {
	n := c.clone()
	n.parallelism = k
	return n
}

// MemoryTotal bounds the memory caps of the instances a Runner may run at
// once when the parallelism is left to its default: WithInstances ×
// parallelism × WithMemoryLimit stays within it (4 GiB: 8 shards of two
// calls at the default 256 MiB).
const MemoryTotal = 4 << 30

// defaultParallelism is the CPUs this process may use, within MemoryTotal.
func (c *config) defaultParallelism() int {
	n := runtime.GOMAXPROCS(0)
	if fit := int(MemoryTotal / (uint64(max(c.instances, 1)) * c.memory)); fit < n {
		n = fit
	}
	return min(max(n, 1), protocol.MaxShards)
}

func (c *config) WithCacheDir(dir string) Config {
	n := c.clone()
	n.cacheDir = &dir
	return n
}

// IndexCeiling bounds a root's index (WithIndex): the index of a tree of
// 13 public repositories, 878 MiB of text, fit in 448 MiB (BENCHMARKS.md,
// issue 32), so 1 GiB holds a tree of about twice that.
const IndexCeiling = 1 << 30

// indexCap is what a root's index may hold: WithIndex's cap, or
// IndexCeiling when the index is sized from the tree (the module holds it
// to its share of the text).
func (c *config) indexCap() int64 { return cmp.Or(c.indexBytes, IndexCeiling) }

// indexMemory is the index instance's memory cap: the others' and twice
// what the index may hold (its segments are built beside the lists they
// replace), within what a module's memory can address.
func (c *config) indexMemory() uint64 { return min(4<<30, c.memory+2*uint64(c.indexCap())) }

// runtimeMemory is the largest memory cap of any instance, the runtime's.
func (c *config) runtimeMemory() uint64 {
	if c.index {
		return max(c.memory, c.indexMemory())
	}
	return c.memory
}

func (c *config) WithIndex(on bool, maxBytes int64) Config {
	n := c.clone()
	n.index, n.indexBytes = on, maxBytes
	return n
}

func (c *config) WithIndexCache(dir string) Config {
	n := c.clone()
	n.indexCache = dir
	return n
}

// DefaultIndexCacheLimit is what an index cache holds at most unless
// WithIndexCacheLimit says otherwise: 1 GiB, the indexes of a few large
// trees or hundreds of small ones.
const DefaultIndexCacheLimit = 1 << 30

func (c *config) WithLazyStart(on bool) Config {
	n := c.clone()
	n.lazyStart = on
	return n
}

func (c *config) WithIndexCacheLimit(n int64) Config {
	n2 := c.clone()
	n2.cacheLimit = max(n, 0)
	return n2
}

func (c *config) WithReadGuard(g ReadGuard) Config {
	n := c.clone()
	n.guard = g
	return n
}

func (c *config) WithAudit(fn func(AuditRecord)) Config {
	n := c.clone()
	n.audit = fn
	return n
}

func (c *config) WithRootPolicy(name string, p RootPolicy) Config {
	n := c.clone()
	if n.policies == nil {
		n.policies = map[string]RootPolicy{}
	}
	p.Deny = slices.Clone(p.Deny)
	p.Ignore = slices.Clone(p.Ignore)
	n.policies[name] = p
	return n
}

func (c *config) WithDefaultSkips(on bool) Config {
	n := c.clone()
	n.noDefaultSkips = !on
	return n
}

// wirePolicy is the roots' policies as requests carry them, with the
// default skips.
func (c *config) wirePolicy() []protocol.RootPolicy {
	var out []protocol.RootPolicy
	for _, root := range c.roots {
		p, ok := c.policies[root.Name]
		if !ok {
			continue
		}
		w := protocol.RootPolicy{Root: root.Name, HideHidden: p.HideHidden, Deny: p.Deny}
		for _, r := range p.Ignore {
			w.Ignore = append(w.Ignore, protocol.IgnoreRules(r))
		}
		out = append(out, w)
	}
	if c.noDefaultSkips {
		return out
	}
	return c.withDefaultSkips(out)
}

// withDefaultSkips returns policies with the default skips added to every
// root's, last: the lowest rank of all ignore rules.
func (c *config) withDefaultSkips(policies []protocol.RootPolicy) []protocol.RootPolicy {
	out := slices.Clone(policies)
	for _, root := range c.roots {
		i := slices.IndexFunc(out, func(p protocol.RootPolicy) bool { return p.Root == root.Name })
		if i < 0 {
			out = append(out, protocol.RootPolicy{Root: root.Name})
			i = len(out) - 1
		}
		out[i].Ignore = append(slices.Clone(out[i].Ignore), protocol.IgnoreRules{Kind: "global", Source: defaultSkipsSource, Rules: DefaultSkips})
	}
	return out
}

func (c *config) WithMaxResultBytes(n int64) Config {
	nc := c.clone()
	nc.maxResultBytes = n
	return nc
}

func (c *config) WithMaxTextBytes(n int64) Config {
	nc := c.clone()
	nc.maxTextBytes = n
	return nc
}
