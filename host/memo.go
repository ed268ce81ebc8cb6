package host

import "sync"

// A memo keeps what earlier calls learned for later ones to go faster (a
// walk's size, where its files lie), by key. It keeps at most max: its
// keys come from calls, which may name paths without end, so storing one
// more forgets another (any; forgetting costs only speed).
type memo[V any] struct {
	mu  sync.Mutex
	m   map[string]V
	max int
}

func newMemo[V any](max int) *memo[V] { return &memo[V]{m: map[string]V{}, max: max} }

func (c *memo[V]) load(k string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *memo[V]) store(k string, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[k]; !ok && len(c.m) >= c.max {
		for old := range c.m {
			delete(c.m, old)
			break
		}
	}
	c.m[k] = v
}

// A Runner remembers the walks of this many grep paths, and where the
// files of this many walks lay: a plan holds up to 128 samples a shard.
const (
	maxWalked = 1 << 10
	maxPlans  = 1 << 6
)
